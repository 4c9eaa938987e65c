import type { Service } from '@agency/shared';
import { servicesResource, useApiResource } from '@agency/shared/data';
import { SectionHeading } from '../../shared/section-heading/SectionHeading';
import { ServiceCard } from './ServiceCard';
import styles from './Services.module.css';

/** Placeholder cards while loading keep the section's height (the agency offers seven services). */
const PLACEHOLDER_COUNT = 7;

/**
 * The services from GET /api/services. A failed load is logged only: the list stays empty and the
 * visitor is shown nothing about it.
 */
export default function Services() {
  const state = useApiResource(servicesResource, 'mfe-home');
  return <ServicesSection services={state.status === 'loaded' ? state.data : []} loading={state.status === 'loading'} />;
}

/** The section as the home page shows it: heading, then the cards (or placeholders while loading). */
export function ServicesSection({ services, loading }: { services: Service[]; loading: boolean }) {
  return (
    <div>
      <SectionHeading
        eyebrow="Послуги"
        title="Що ми робимо для вашого бізнесу"
        lead="Оберіть один напрям або комплекс — ми зберемо команду для вашого завдання й узгодимо результат, за який відповідатимемо."
      />
      {loading ? (
        <div className={styles.grid} aria-hidden="true" data-testid="services-placeholder">
          {Array.from({ length: PLACEHOLDER_COUNT }, (_, index) => (
            <div key={index} className={`${styles.card} ${styles.placeholder}`} />
          ))}
        </div>
      ) : (
        <ul className={styles.grid} aria-label="Список послуг">
          {services.map((service, index) => (
            // A service's id is optional on the wire; its place and title stand in without one.
            <li key={service.id ?? `${index}:${service.title}`}>
              <ServiceCard service={service} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
