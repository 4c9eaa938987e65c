import { BRAND, typeset } from '@agency/shared';
import { SectionHeading } from '../../shared/section-heading/SectionHeading';
import { REASONS, reasonNumber } from './reasons';
import styles from './Reasons.module.css';

/** Six numbered reasons to choose the agency. */
export default function Reasons() {
  return (
    <div>
      <SectionHeading eyebrow="Чому ми" title={`Шість причин обрати «${BRAND.name}»`} />
      <ol className={styles.list}>
        {REASONS.map((reason, index) => (
          <li key={reason.title} className={styles.item}>
            {/* The list already announces the position; the big number is for the eye. */}
            <span className={styles.number} aria-hidden="true">
              {reasonNumber(index)}
            </span>
            <h3 className={styles.title}>{reason.title}</h3>
            <p className={styles.text}>{typeset(reason.text)}</p>
          </li>
        ))}
      </ol>
    </div>
  );
}
