import { formatPriceFrom, typeset, type Service } from '@agency/shared';
import styles from './Services.module.css';

/**
 * One service: icon, title, description, what is included and, when known, the starting price.
 * The agency writes the texts in the API's content; the site's typography is applied here.
 */
export function ServiceCard({ service }: { service: Service }) {
  const hasPrice = typeof service.price_from === 'number' && Number.isFinite(service.price_from);
  return (
    <article className={styles.card}>
      <img
        className={styles.icon}
        src={service.icon_url}
        alt={`Іконка послуги «${service.title}»`}
        width={56}
        height={56}
        loading="lazy"
        decoding="async"
      />
      <h3 className={styles.title}>{service.title}</h3>
      <p className={styles.description}>{typeset(service.description)}</p>
      {service.features.length > 0 && (
        <ul className={styles.features} aria-label={`Що входить у «${service.title}»`}>
          {service.features.map((feature) => (
            <li key={feature}>{typeset(feature)}</li>
          ))}
        </ul>
      )}
      {hasPrice && <p className={styles.price}>{formatPriceFrom(service.price_from as number)}</p>}
    </article>
  );
}
