import { Link } from '@agency/shared/router';
import { BRAND, SECTION_IDS, SERVICE_TYPES } from '@agency/shared';
import { SocialIcon } from './SocialIcon';
import { BrandLogo } from './BrandLogo';
import styles from './SiteFooter.module.css';

const COMPANY_LINKS = [
  { sectionId: SECTION_IDS.about, label: 'Про агенцію' },
  { sectionId: SECTION_IDS.reasons, label: 'Чому ми' },
  { sectionId: SECTION_IDS.team, label: 'Команда' },
  { sectionId: SECTION_IDS.vacancies, label: 'Вакансії' },
  { sectionId: SECTION_IDS.blog, label: 'Блог' },
];

/** Footer columns (services, company, contacts) and social buttons, on every page. */
export function SiteFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className={styles.footer}>
      <div className={styles.columns}>
        <div className={styles.about}>
          <p className={styles.brand}>
            <BrandLogo className={styles.logo} tile="#ffc629" waves="#0e1f52" />
            {BRAND.name}
          </p>
          <p className={styles.tagline}>{BRAND.tagline}</p>
          <ul className={styles.socials} aria-label="Ми в соцмережах">
            {BRAND.socials.map((social) => (
              <li key={social.id}>
                <a href={social.href} className={styles.social} aria-label={social.label} rel="noopener noreferrer" target="_blank">
                  <SocialIcon network={social.id} />
                </a>
              </li>
            ))}
          </ul>
        </div>
        <nav aria-labelledby="footer-services" className={styles.linksColumn}>
          <h2 id="footer-services" className={styles.heading}>
            Послуги
          </h2>
          <ul className={styles.list}>
            {SERVICE_TYPES.map((type) => (
              <li key={type.value}>
                <Link to={{ pathname: '/', hash: `#${SECTION_IDS.services}` }}>{type.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-labelledby="footer-company" className={styles.linksColumn}>
          <h2 id="footer-company" className={styles.heading}>
            Компанія
          </h2>
          <ul className={styles.list}>
            {COMPANY_LINKS.map((link) => (
              <li key={link.sectionId}>
                <Link to={{ pathname: '/', hash: `#${link.sectionId}` }}>{link.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className={styles.contactsColumn}>
          <h2 className={styles.heading}>Контакти</h2>
          <address className={styles.contacts}>
            <span>{BRAND.address}</span>
            <a href={BRAND.phoneHref}>{BRAND.phone}</a>
            <a href={`mailto:${BRAND.email}`}>{BRAND.email}</a>
            {BRAND.workingHours.map((row) => (
              <span key={row.days}>
                {row.days}: <span className={styles.nowrap}>{row.hours}</span>
              </span>
            ))}
          </address>
        </div>
      </div>
      <p className={styles.copyright}>
        © {year} {BRAND.fullName}. Усі права захищено.
      </p>
    </footer>
  );
}
