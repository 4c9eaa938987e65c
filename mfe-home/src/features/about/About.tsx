import { AGENCY_STATS, BRAND, typeset } from '@agency/shared';
import { SectionHeading } from '../../shared/section-heading/SectionHeading';
import { StatList } from '../../shared/stat-list/StatList';
import styles from './About.module.css';

const PRINCIPLES = [
  'Ставимо вимірювані цілі ще до початку роботи',
  'Складаємо звіти, зрозумілі без маркетолога',
  'Працюємо з компаніями, у які віримо самі',
].map(typeset);

/** Who the agency is, with the team size and the support promise. */
export default function About() {
  return (
    <div className={styles.about}>
      <div>
        <SectionHeading eyebrow="Про агенцію" title={`«${BRAND.name}» — команда, яка рахує результат`} />
        <div className={styles.text}>
          <p>
            {typeset(
              `Ми почали як невелика група маркетологів, яким набридли звіти заради звітів. Сьогодні «${BRAND.name}» — ` +
                `це стратеги, копірайтери, дизайнери, таргетологи й аналітики, які працюють ${BRAND.cityLocative} для ` +
                'клієнтів з усієї України та з-за кордону.',
            )}
          </p>
          <p>
            {typeset(
              'Ми беремося лише за ті завдання, результат яких можна виміряти, і відкрито показуємо, що спрацювало, а ' +
                'що — ні. Саме тому більшість клієнтів залишається з нами на роки.',
            )}
          </p>
        </div>
        <ul className={styles.principles}>
          {PRINCIPLES.map((principle) => (
            <li key={principle}>{principle}</li>
          ))}
        </ul>
      </div>
      <StatList
        stats={AGENCY_STATS.about}
        classes={{ list: styles.stats, item: styles.stat, value: styles.statValue, label: styles.statLabel }}
      />
    </div>
  );
}
