import { HOME_PAGE_META, SECTION_IDS } from '@agency/shared';
import { RemoteSlot } from '../../frame/federation/remote-slot';
import { useHydrateOnNavigation } from '../../frame/federation/use-hydrate-on-navigation';
import { usePageMeta } from '../../frame/page/page-render-context';
import styles from './HomePage.module.css';

/**
 * The home page in the spec's order. The shell owns each section's frame and anchor; the
 * remotes fill them, so navigation works even while a remote is down. Every section comes
 * rendered from the server; the sections below the first screen load their remotes as they near
 * the viewport, or at once when a navigation keeps this page.
 */
export function HomePage() {
  usePageMeta(HOME_PAGE_META);
  useHydrateOnNavigation();
  return (
    <>
      <section id={SECTION_IDS.hero} className={styles.hero} aria-label="Головне">
        <RemoteSlot id="home/Hero" minHeight="560px" />
      </section>
      <section id={SECTION_IDS.about} className={styles.section} aria-label="Про агенцію">
        <RemoteSlot id="home/About" minHeight="320px" />
      </section>
      <section id={SECTION_IDS.services} className={`${styles.sectionAlt} ${styles.belowFirstScreen} ${styles.services}`} aria-label="Послуги">
        <RemoteSlot id="home/Services" whenVisible minHeight="720px" />
      </section>
      <section id={SECTION_IDS.reasons} className={`${styles.section} ${styles.belowFirstScreen} ${styles.reasons}`} aria-label="Чому ми">
        <RemoteSlot id="home/Reasons" whenVisible minHeight="480px" />
      </section>
      <section id={SECTION_IDS.team} className={`${styles.sectionAlt} ${styles.belowFirstScreen} ${styles.team}`} aria-label="Команда">
        <RemoteSlot id="home/Team" whenVisible minHeight="520px" />
      </section>
      <section id={SECTION_IDS.vacancies} className={`${styles.section} ${styles.belowFirstScreen} ${styles.vacancies}`} aria-label="Вакансії">
        <div className={styles.split}>
          <RemoteSlot id="home/Vacancies" whenVisible minHeight="480px" />
          <RemoteSlot id="forms/JobApplicationForm" whenVisible minHeight="560px" />
        </div>
      </section>
      <section id={SECTION_IDS.blog} className={`${styles.sectionAlt} ${styles.belowFirstScreen} ${styles.blog}`} aria-label="Блог">
        <RemoteSlot id="blog/BlogTeaser" whenVisible minHeight="520px" />
      </section>
      <section id={SECTION_IDS.contact} className={`${styles.section} ${styles.belowFirstScreen} ${styles.contact}`} aria-label="Контакти">
        <div className={styles.split}>
          <RemoteSlot id="home/ContactDetails" whenVisible minHeight="400px" />
          <RemoteSlot id="forms/ContactForm" whenVisible minHeight="600px" />
        </div>
      </section>
    </>
  );
}
