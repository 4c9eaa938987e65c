import type { StaffRelease, StaffReleaseApp } from '@agency/shared';
import { Link } from '@agency/shared/router';
import styles from '../../shared/ui/console.module.css';
import { releaseLabel, shareText } from './release-format';
import releases from './releases.module.css';

function Release({ release }: { release: StaffRelease | null }) {
  if (!release) return <span className={styles.muted}>—</span>;
  return (
    <>
      <span className={releases.id}>{release.id}</span>{' '}
      <br />
      <span className={styles.muted}>{releaseLabel(release)}</span>
    </>
  );
}

interface ReleaseAppsProps {
  apps: StaffReleaseApp[];
  mayAct: string[];
  /** The app shown below, if any. */
  selected: string | undefined;
  /** The address that shows an app's health. */
  linkTo(app: string): string;
}

/** Every app with its current, previous, candidate and staged releases: a card per app on a phone. */
export function ReleaseApps({ apps, mayAct, selected, linkTo }: ReleaseAppsProps) {
  return (
    <section className={styles.panel} aria-labelledby="releases-apps">
      <h2 id="releases-apps">Застосунки</h2>
      <div className={styles.tableWrap}>
        <table className={`${styles.table} ${styles.stacked}`}>
          <thead>
            <tr>
              <th scope="col">Застосунок</th>
              <th scope="col">Поточний</th>
              <th scope="col">Попередній</th>
              <th scope="col">Кандидат</th>
              <th scope="col">Підготовлені</th>
              <th scope="col">Стан</th>
            </tr>
          </thead>
          <tbody>
            {apps.map((app) => (
              <tr key={app.app} aria-current={app.app === selected ? 'true' : undefined}>
                <td data-label="Застосунок">
                  <strong>{app.app}</strong>
                  {mayAct.includes(app.app) && <span className={styles.badge}>ваш</span>}
                </td>
                <td data-label="Поточний">{app.current ? <Release release={app.current} /> : <span className={styles.muted}>збірка з теки dist</span>}</td>
                <td data-label="Попередній">
                  <Release release={app.previous} />
                </td>
                <td data-label="Кандидат">
                  {app.candidate ? (
                    <>
                      <Release release={app.candidate.release} />{' '}
                      <br />
                      {shareText(app.candidate.share)} відвідувачів
                    </>
                  ) : (
                    <span className={styles.muted}>—</span>
                  )}
                </td>
                <td data-label="Підготовлені">
                  {app.staged.length === 0 ? (
                    <span className={styles.muted}>—</span>
                  ) : (
                    app.staged.map((release) => (
                      <div key={release.id}>
                        <Release release={release} />
                      </div>
                    ))
                  )}
                </td>
                <td data-label="Стан">
                  <Link to={linkTo(app.app)} aria-label={`Стан і дії: ${app.app}`}>
                    {app.app === selected ? 'Показано нижче' : 'Стан і дії'}
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
