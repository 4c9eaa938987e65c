import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from '@agency/shared/router';
import { BRAND } from '@agency/shared';
import { NAV_LINKS } from './nav-links';
import { BrandLogo } from './BrandLogo';
import styles from './SiteHeader.module.css';

const NAV_ID = 'site-nav';

/** Brand link and section navigation; away from the home page it also offers the way back. */
export function SiteHeader() {
  const { pathname, hash } = useLocation();
  const onHome = pathname === '/';
  // On narrow screens the section links fold into a menu button.
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    setMenuOpen(false);
  }, [pathname, hash]);

  useEffect(() => {
    if (!menuOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', closeOnEscape);
    return () => document.removeEventListener('keydown', closeOnEscape);
  }, [menuOpen]);

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
          <button
            type="button"
            ref={menuButton}
            className={styles.menuButton}
            aria-expanded={menuOpen}
            aria-controls={NAV_ID}
            onClick={() => setMenuOpen((open) => !open)}
          >
            <span className={menuOpen ? `${styles.menuIcon} ${styles.closeIcon}` : styles.menuIcon} aria-hidden="true" />
            {menuOpen ? 'Закрити' : 'Меню'}
          </button>
          <nav id={NAV_ID} aria-label="Розділи сайту" className={menuOpen ? `${styles.nav} ${styles.open}` : styles.nav}>
            <ul className={styles.links}>
              {NAV_LINKS.map((link) => (
                <li key={link.sectionId} className={styles.sectionLink}>
                  <Link to={{ pathname: '/', hash: `#${link.sectionId}` }} onClick={() => setMenuOpen(false)}>
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </header>
      {/* Dims the page under the open menu; a click on it closes the menu, like the button and Escape. */}
      {menuOpen && <div className={styles.backdrop} data-testid="menu-backdrop" aria-hidden="true" onClick={() => setMenuOpen(false)} />}
    </>
  );
}
