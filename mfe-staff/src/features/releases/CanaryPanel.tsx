import { VERDICT_LABELS, type ReleaseHealth, type StaffReleaseDetail } from '@agency/shared';
import styles from '../../shared/ui/console.module.css';
import { kyivDateTime } from '../../shared/ui/kyiv-time';
import { msText, numberText, rulesText } from './release-format';
import releases from './releases.module.css';

const EVIDENCE: { label: string; value(health: ReleaseHealth): string }[] = [
  { label: 'Переглядів, що враховуються', value: (health) => numberText(health.judged_page_views) },
  { label: 'Клієнтів, яким надіслано сторінки', value: (health) => numberText(health.clients.served) },
  { label: 'Клієнтів, що повідомили про помилки', value: (health) => numberText(health.clients.error) },
  { label: 'Клієнтів зі збоями завантаження', value: (health) => numberText(health.clients.load_failure) },
  { label: 'Клієнтів із LCP чи INP', value: (health) => numberText(health.clients.vitals) },
  { label: 'Збої рендерингу на сервері', value: (health) => numberText(health.render_failures) },
  { label: 'LCP, p75', value: (health) => msText(health.vitals.lcp_p75_ms) },
  { label: 'INP, p75', value: (health) => msText(health.vitals.inp_p75_ms) },
];

/**
 * A running canary: its share and rules, the decision the site will take on its health now (in
 * words; the reason as the judge records it), and the evidence that decision is taken from: the
 * candidate's and the current release's health since the canary started.
 */
export function CanaryPanel({ detail }: { detail: StaffReleaseDetail }) {
  const candidate = detail.state.candidate;
  const canary = detail.status.canary;
  if (!candidate || !canary) return null;
  const { verdict } = canary;
  return (
    <section className={`${styles.panel} ${styles.stack}`} aria-labelledby="release-canary">
      <h3 id="release-canary">Канарка</h3>
      <dl className={styles.facts}>
        <dt>Кандидат</dt>
        <dd className={releases.id}>{candidate.id}</dd>
        <dt>Правила</dt>
        <dd>{rulesText(candidate)}</dd>
        <dt>Від</dt>
        <dd>{kyivDateTime(candidate.since)}</dd>
        <dt>Рішення сайту</dt>
        <dd>
          <strong className={verdict.action === 'roll_back' ? releases.worse : undefined}>{VERDICT_LABELS[verdict.action]}</strong>
          <br />
          <span lang="en">{verdict.reason}</span>
        </dd>
      </dl>
      {detail.evidence && (
        <div className={styles.tableWrap} role="region" aria-labelledby="release-evidence" tabIndex={0}>
          <table className={styles.table}>
            <caption id="release-evidence">Докази з початку канарки</caption>
            <thead>
              <tr>
                <th scope="col">Показник</th>
                <th scope="col">Кандидат</th>
                <th scope="col">Поточний</th>
              </tr>
            </thead>
            <tbody>
              {EVIDENCE.map((row) => (
                <tr key={row.label}>
                  <th scope="row">{row.label}</th>
                  <td>{row.value(detail.evidence!.candidate)}</td>
                  <td>{row.value(detail.evidence!.current)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
