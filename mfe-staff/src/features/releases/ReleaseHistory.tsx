import { DELIVERY_ACTION_LABELS, type DeliveryEvent } from '@agency/shared';
import styles from '../../shared/ui/console.module.css';
import { kyivDateTime } from '../../shared/ui/kyiv-time';
import { actorText } from './release-format';
import releases from './releases.module.css';

/** Every decision about the app's releases, newest first: when, which release, what, who and why. */
export function ReleaseHistory({ events }: { events: DeliveryEvent[] }) {
  const newestFirst = [...events].reverse();
  return (
    <section className={styles.panel} aria-labelledby="release-history">
      <h3 id="release-history">Історія рішень</h3>
      {newestFirst.length === 0 ? (
        <p className={styles.muted}>Рішень про релізи цього застосунку ще не було.</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={`${styles.table} ${styles.stacked}`}>
            <thead>
              <tr>
                <th scope="col">Коли</th>
                <th scope="col">Реліз</th>
                <th scope="col">Що</th>
                <th scope="col">Хто</th>
                <th scope="col">Чому</th>
              </tr>
            </thead>
            <tbody>
              {newestFirst.map((event, index) => (
                <tr key={`${event.at}\n${event.release}\n${event.action}\n${index}`}>
                  <td data-label="Коли">{kyivDateTime(event.at)}</td>
                  <td data-label="Реліз" className={releases.id}>
                    {event.release}
                  </td>
                  <td data-label="Що">{DELIVERY_ACTION_LABELS[event.action]}</td>
                  <td data-label="Хто">{actorText(event.actor)}</td>
                  <td data-label="Чому" lang="en">
                    {event.reason}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
