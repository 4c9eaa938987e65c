import { AGENCY_STATS, BRAND, blogListingPath, CASE_STUDIES_CATEGORY, SECTION_IDS, typeset } from '@agency/shared';
import { HeroArt } from './HeroArt';
import { StatList } from '../../shared/stat-list/StatList';
import styles from './Hero.module.css';

/** First screen: the promise, the two ways forward and the figures that back it up. */
export default function Hero() {
  return (
    <div className={styles.hero}>
      <div className={styles.copy}>
        <p className={styles.eyebrow}>Діджитал-агенція {BRAND.cityLocative}</p>
        <h1 className={styles.title}>
          Маркетинг, що приводить клієнтів, <span className={styles.highlight}>{typeset('а не лише вподобайки')}</span>
        </h1>
        <p className={styles.lead}>
          {typeset(
            `«${BRAND.name}» поєднує SMM, контент, рекламу та аналітику в одну систему, де кожна гривня бюджету ` +
              'працює на ваші продажі. Почнемо з аудиту й чесного плану — без зайвих обіцянок.',
          )}
        </p>
        <div className={styles.actions}>
          <a className={styles.primary} href={`#${SECTION_IDS.contact}`}>
            Почати проєкт
          </a>
          <a className={styles.secondary} href={blogListingPath({ category: CASE_STUDIES_CATEGORY })}>
            Наші кейси
          </a>
        </div>
        <StatList
          stats={AGENCY_STATS.hero}
          classes={{ list: styles.stats, item: styles.stat, value: styles.statValue, label: styles.statLabel }}
        />
      </div>
      <HeroArt className={styles.art} />
    </div>
  );
}
