import { countText, LEAD_KIND_LABELS, shareText, type Dashboard } from '@agency/shared';
import styles from '../../shared/ui/console.module.css';
import overview from './overview.module.css';

type Funnel = Dashboard['funnels'][number];

/** A form's steps, from who saw it to the clients it brought. */
const STEPS: { key: Exclude<keyof Funnel, 'form'>; label: string }[] = [
  { key: 'seen', label: 'Бачили форму' },
  { key: 'started', label: 'Почали заповнювати' },
  { key: 'sent', label: 'Надіслали' },
  { key: 'won', label: 'Клієнти' },
];

/**
 * Each form's funnel, its steps left to right as a funnel reads: how many reached each step, and
 * what share that is of those who saw the form.
 */
export function FormFunnels({ funnels }: { funnels: Funnel[] }) {
  return (
    <section className={`${styles.panel} ${styles.stack}`} aria-labelledby="overview-funnels">
      <h2 id="overview-funnels">Воронки форм</h2>
      {funnels.length === 0 ? (
        <p className={styles.muted}>За цей період форм не бачив ніхто.</p>
      ) : (
        <div className={overview.funnels}>
          {funnels.map((funnel) => {
            const id = `overview-funnel-${funnel.form}`;
            const shareOf = (count: number) => (funnel.seen === 0 ? null : Math.min(count / funnel.seen, 1));
            return (
              <div key={funnel.form} className={styles.tableWrap} role="region" aria-labelledby={id} tabIndex={0}>
                <table className={styles.table} data-form={funnel.form}>
                  <caption className={overview.caption}>
                    <h3 id={id}>{LEAD_KIND_LABELS[funnel.form]}</h3>
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Показник</th>
                      {STEPS.map(({ key, label }) => (
                        <th key={key} scope="col">
                          {label}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    <tr>
                      <th scope="row">Кількість</th>
                      {STEPS.map(({ key }) => (
                        <td key={key}>{countText(funnel[key])}</td>
                      ))}
                    </tr>
                    <tr>
                      <th scope="row">Від тих, хто бачив</th>
                      {STEPS.map(({ key }) => {
                        const share = shareOf(funnel[key]);
                        return (
                          <td key={key}>
                            {share === null ? '—' : shareText(share)}
                            {share !== null && share > 0 && <span className={overview.bar} style={{ width: `${share * 100}%` }} aria-hidden="true" />}
                          </td>
                        );
                      })}
                    </tr>
                  </tbody>
                </table>
              </div>
            );
          })}
        </div>
      )}
    </section>
  );
}
