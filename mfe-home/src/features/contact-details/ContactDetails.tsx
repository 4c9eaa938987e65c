import { BRAND } from '@agency/shared';
import { SectionHeading } from '../../shared/section-heading/SectionHeading';
import styles from './ContactDetails.module.css';

/** Address, phone, e-mail and working hours from the one brand record; the contact form sits beside it. */
export default function ContactDetails() {
  return (
    <div className={styles.details}>
      <SectionHeading
        eyebrow="Контакти"
        title="Обговорімо ваш проєкт"
        lead="Розкажіть про свій бізнес і завдання — відповімо протягом робочого дня й запропонуємо перші кроки."
      />
      <address className={styles.card}>
        <dl className={styles.list}>
          <div className={styles.row}>
            <dt>Адреса</dt>
            <dd>{BRAND.address}</dd>
          </div>
          <div className={styles.row}>
            <dt>Телефон</dt>
            <dd>
              <a href={BRAND.phoneHref}>{BRAND.phone}</a>
            </dd>
          </div>
          <div className={styles.row}>
            <dt>Електронна пошта</dt>
            <dd>
              <a href={`mailto:${BRAND.email}`}>{BRAND.email}</a>
            </dd>
          </div>
        </dl>
      </address>
      <div className={styles.hours}>
        <h3 className={styles.hoursTitle}>Графік роботи</h3>
        <dl className={styles.list}>
          {BRAND.workingHours.map((row) => (
            <div key={row.days} className={styles.hoursRow}>
              <dt>{row.days}</dt>
              <dd>{row.hours}</dd>
            </div>
          ))}
        </dl>
      </div>
    </div>
  );
}
