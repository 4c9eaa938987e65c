import { SectionHeading } from '../../shared/section-heading/SectionHeading';
import { ServiceCard } from './ServiceCard';
import { useServices } from './use-services';
import styles from './Services.module.css';

/** Placeholder cards while loading keep the section's height (the agency offers seven services). */
const PLACEHOLDER_COUNT = 7;

/** The services from GET /api/services. */
export default function Services() {
  const { status, services } = useServices();
  return (
    <div>
      <SectionHeading
        eyebrow="Послуги"
        title="Що ми робимо для вашого бізнесу"
        lead="Оберіть один напрям або комплекс — ми зберемо команду під ваше завдання й узгодимо результат, за який відповідаємо."
      />
      {status === 'loading' ? (
        <div className={styles.grid} aria-hidden="true" data-testid="services-placeholder">
          {Array.from({ length: PLACEHOLDER_COUNT }, (_, index) => (
            <div key={index} className={`${styles.card} ${styles.placeholder}`} />
          ))}
        </div>
      ) : (
        <ul className={styles.grid} aria-label="Список послуг">
          {services.map((service) => (
            <li key={service.id}>
              <ServiceCard service={service} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
