import type { ReleaseStatusEntry } from '@agency/shared';
import styles from '../../shared/ui/console.module.css';
import { msText, numberText, rateText, scoreText } from './release-format';
import type { Side } from './release-sides';
import releases from './releases.module.css';

const FIGURES: { label: string; value(entry: ReleaseStatusEntry): string }[] = [
  { label: 'Перегляди сторінок', value: (entry) => numberText(entry.page_views) },
  { label: 'Помилки на сторінці', value: (entry) => numberText(entry.errors) },
  { label: 'Помилок на перегляд', value: (entry) => rateText(entry.error_rate) },
  { label: 'Збої завантаження', value: (entry) => numberText(entry.load_failures) },
  { label: 'Повторні завантаження', value: (entry) => numberText(entry.load_retries) },
  { label: 'Збої рендерингу на сервері', value: (entry) => numberText(entry.render_failures) },
  { label: 'LCP, p75', value: (entry) => msText(entry.vitals.lcp_p75_ms) },
  { label: 'INP, p75', value: (entry) => msText(entry.vitals.inp_p75_ms) },
  { label: 'CLS, p75', value: (entry) => scoreText(entry.vitals.cls_p75) },
  { label: 'FCP, p75', value: (entry) => msText(entry.vitals.fcp_p75_ms) },
  { label: 'TTFB, p75', value: (entry) => msText(entry.vitals.ttfb_p75_ms) },
];

/** The figures of the releases compared, one column each, over the window shown. */
export function ReleaseComparison({ sides, window }: { sides: Side[]; window: string }) {
  return (
    <section className={styles.panel} aria-labelledby="release-compare">
      <h3 id="release-compare">Поруч: {window}</h3>
      <div className={styles.tableWrap} role="region" aria-labelledby="release-compare-table" tabIndex={0}>
        <table className={styles.table}>
          <caption id="release-compare-table" className={styles.muted}>
            Показники релізів поруч
          </caption>
          <thead>
            <tr>
              <th scope="col">Показник</th>
              {sides.map((side) => (
                <th key={side.entry.id} scope="col">
                  {side.title}
                  <br />
                  <span className={`${releases.id} ${styles.muted}`}>{side.entry.id}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {FIGURES.map((figure) => (
              <tr key={figure.label}>
                <th scope="row">{figure.label}</th>
                {sides.map((side) => (
                  <td key={side.entry.id}>{figure.value(side.entry)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** Each compared release's most frequent errors, where each was thrown in the source (the release's source maps tell). */
export function TopErrors({ sides }: { sides: Side[] }) {
  return (
    <section className={styles.panel} aria-labelledby="release-errors">
      <h3 id="release-errors">Найчастіші помилки</h3>
      <div className={releases.sides}>
        {sides.map((side) => (
          <section key={side.entry.id} aria-label={`Помилки: ${side.title}`}>
            <h4>
              {side.title} <span className={`${releases.id} ${styles.muted}`}>{side.entry.id}</span>
            </h4>
            {side.entry.top_errors.length === 0 ? (
              <p className={styles.muted}>Помилок не повідомлено.</p>
            ) : (
              <ol className={releases.errors}>
                {side.entry.top_errors.map((error) => (
                  <li key={`${error.kind}\n${error.message}\n${error.page}`}>
                    <strong>{numberText(error.count)}×</strong> <span lang="en">{error.message}</span>
                    <br />
                    <span className={styles.muted}>
                      {error.kind}, на {error.page}
                    </span>
                    <br />
                    <span className={releases.source}>{error.source ? `у ${error.source}` : 'місце невідоме (немає карти коду для цього місця)'}</span>
                  </li>
                ))}
              </ol>
            )}
          </section>
        ))}
      </div>
    </section>
  );
}
