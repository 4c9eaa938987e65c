import { Link, useLocation } from 'react-router-dom';
import { BRAND } from '@agency/shared';
import { NAV_LINKS } from './nav-links';
import styles from './SiteHeader.module.css';

/** Brand link and section navigation; away from the home page it also offers the way back. */
export function SiteHeader() {
  const { pathname } = useLocation();
  const onHome = pathname === '/';
  return (
    <header className={styles.header}>
      <div className={styles.inner}>
        <Link to="/" className={styles.brand} aria-label={`${BRAND.name} — на головну`}>
          <span className={styles.logo} aria-hidden="true">
            ≈
          </span>
          {BRAND.name}
        </Link>
        <nav aria-label="Розділи сайту" className={styles.nav}>
          <ul className={styles.links}>
            {!onHome && (
              <li>
                <Link to="/" className={styles.backLink}>
                  ← На головну
                </Link>
              </li>
            )}
            {NAV_LINKS.map((link) => (
              <li key={link.sectionId} className={styles.sectionLink}>
                <Link to={{ pathname: '/', hash: `#${link.sectionId}` }}>{link.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </header>
  );
}
