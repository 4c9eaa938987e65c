import { useEffect, useRef } from 'react';
import { Link, useLocation } from '@agency/shared/router';
import { BRAND } from '@agency/shared';
import { NAV_LINKS } from './nav-links';
import { BrandLogo } from './BrandLogo';
import styles from './SiteHeader.module.css';

const NAV_ID = 'site-nav';

/** Closes the phone menu if it is open. */
function closeMenu(nav: HTMLElement | null): void {
  // Browsers without popovers (and jsdom) show the section links inline: nothing to close.
  if (typeof nav?.hidePopover === 'function' && nav.matches(':popover-open')) nav.hidePopover();
}

/** Brand link and section navigation; away from the home page it also offers the way back. */
export function SiteHeader() {
  const { pathname, hash } = useLocation();
  const onHome = pathname === '/';
  const nav = useRef<HTMLElement>(null);

  // Any navigation closes the menu: a section chosen in it, Back, a link elsewhere on the page.
  // Not the first render: a menu opened before React adopted the page stays open.
  const location = pathname + hash;
  const menuLocation = useRef(location);
  useEffect(() => {
    if (menuLocation.current === location) return;
    menuLocation.current = location;
    closeMenu(nav.current);
  }, [location]);

  return (
    <>
      <header className={styles.header}>
        <div className={styles.inner}>
          <Link to="/" className={styles.brand} aria-label={`${BRAND.name} — на головну`}>
            <BrandLogo className={styles.logo} tile="currentColor" waves="#ffc629" />
            {BRAND.name}
          </Link>
          {!onHome && (
            <Link to="/" className={styles.backLink}>
              ← На головну
            </Link>
          )}
          {/* On narrow screens the section links fold into this button's menu. It is a native
              popover: it opens, closes on Escape or a tap beside it, and tells assistive technology
              whether it is expanded as soon as the page is on screen, before any script runs. The
              label and icon follow its state in CSS. */}
          <button type="button" className={styles.menuButton} popoverTarget={NAV_ID} aria-controls={NAV_ID}>
            <span className={styles.menuIcon} aria-hidden="true" />
            <span className={styles.openLabel}>Меню</span>
            <span className={styles.closeLabel}>Закрити</span>
          </button>
          <nav id={NAV_ID} ref={nav} popover="auto" aria-label="Розділи сайту" className={styles.nav}>
            <ul className={styles.links}>
              {NAV_LINKS.map((link) => (
                <li key={link.sectionId} className={styles.sectionLink}>
                  {/* Choosing the section already shown changes no location: close here too. */}
                  <Link to={{ pathname: '/', hash: `#${link.sectionId}` }} onClick={() => closeMenu(nav.current)}>
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </header>
      {/* Dims the page under the open menu (shown in CSS); a tap on it is a tap beside the menu. */}
      <div className={styles.backdrop} data-testid="menu-backdrop" aria-hidden="true" />
    </>
  );
}
