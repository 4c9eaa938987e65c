import { useEffect } from 'react';
import { STAFF_PATHS, type StaffReleaseChanged } from '@agency/shared';
import { useLocation, useNavigate } from '@agency/shared/router';
import styles from '../../shared/ui/console.module.css';
import { ErrorAlert } from '../../shared/ui/ErrorAlert';
import { useDocumentTitle } from '../../shared/ui/use-document-title';
import { RemoteOverrideForm } from '../remote-override/RemoteOverrideForm';
import { CanaryPanel } from './CanaryPanel';
import { ReleaseActions } from './ReleaseActions';
import { ReleaseApps } from './ReleaseApps';
import { releaseChoices } from './release-choices';
import { ReleaseComparison, TopErrors } from './ReleaseComparison';
import { DEFAULT_WINDOW, HEALTH_WINDOWS, isHealthWindow, type HealthWindow } from './release-format';
import { ReleaseHistory } from './ReleaseHistory';
import { ReleaseSeriesTable } from './ReleaseSeriesTable';
import { sidesOf } from './release-sides';
import releases from './releases.module.css';
import { useReleaseDetail, useReleaseOverview } from './use-release-data';

/** The address of «Релізи» showing `app` over `since`. */
function pathOf(app: string | undefined, since: HealthWindow): string {
  const query = new URLSearchParams();
  if (app) query.set('app', app);
  if (since !== DEFAULT_WINDOW) query.set('since', since);
  const search = query.toString();
  return `${STAFF_PATHS.releases}${search ? `?${search}` : ''}`;
}

interface AppHealthProps {
  app: string;
  since: HealthWindow;
  onWindow(since: HealthWindow): void;
  /** The app's releases changed (a change, or a refusal that says they moved on): read every app again. */
  onReleasesChanged(): void;
}

/**
 * One app: its releases' health, a canary's candidate and the current release side by side (or
 * the current and the previous one), over the window and over time, their top errors, the canary's
 * decision and evidence, the history, and what the member may do.
 */
function AppHealth({ app, since, onWindow, onReleasesChanged }: AppHealthProps) {
  const detail = useReleaseDetail(app, since);
  const shown = detail.data?.state.app === app ? detail.data : undefined;
  const windowLabel = HEALTH_WINDOWS.find((window) => window.since === since)?.label ?? since;

  const changed = (answer: StaffReleaseChanged) => {
    // The answer's state at once (the revision the next change sends), the health after it.
    if (shown) detail.show({ ...shown, state: answer.state });
    detail.reload();
    onReleasesChanged();
  };
  const refused = () => {
    detail.reload();
    onReleasesChanged();
  };

  return (
    <section className={styles.stack} aria-labelledby="release-app">
      <h2 id="release-app">Застосунок {app}</h2>
      <div className={styles.row}>
        <div className={releases.windows} role="group" aria-label="Період">
          {HEALTH_WINDOWS.map((window) => (
            <button key={window.since} type="button" className={styles.secondary} aria-pressed={window.since === since} onClick={() => onWindow(window.since)}>
              {window.label}
            </button>
          ))}
        </div>
        <button type="button" className={styles.link} onClick={refused}>
          Оновити
        </button>
      </div>
      {detail.loading && <p role="status">Завантаження…</p>}
      <ErrorAlert error={detail.error} />
      {shown && (
        <>
          <ReleaseComparison sides={sidesOf(shown)} window={`за ${windowLabel}`} />
          <CanaryPanel detail={shown} />
          <ReleaseSeriesTable series={shown.series} sides={sidesOf(shown)} />
          <TopErrors sides={sidesOf(shown)} />
          {shown.mayAct ? (
            <>
              <ReleaseActions state={shown.state} onChanged={changed} onRefused={refused} />
              {shown.state.remote && (
                // One browser may load any kept release but the current instead, newest first.
                <RemoteOverrideForm
                  app={app}
                  releases={releaseChoices(shown.state)
                    .sort((a, b) => b.release.publishedAt.localeCompare(a.release.publishedAt))
                    .map(({ release, role }) => ({ id: release.id, label: `${release.id} (${role})` }))}
                />
              )}
            </>
          ) : (
            <p className={styles.notice}>Змінювати релізи {app} може лише менеджер релізів, якому призначено цей застосунок; ви бачите їх без дій.</p>
          )}
          <ReleaseHistory events={shown.status.events} />
        </>
      )}
    </section>
  );
}

/**
 * `/staff/releases` (release managers, and admins read-only): every app with its current,
 * previous, candidate and staged releases; pick one for its health and its history, and, for a
 * release manager's own apps, the changes the release commands make. The app and the window live
 * in the address, so a view reloads and can be shared.
 */
export function ReleasesPage() {
  useDocumentTitle('Релізи');
  const location = useLocation();
  const navigate = useNavigate();
  const query = new URLSearchParams(location.search);
  const asked = query.get('app') ?? undefined;
  const sinceText = query.get('since');
  const since: HealthWindow = isHealthWindow(sinceText) ? sinceText : DEFAULT_WINDOW;
  const overview = useReleaseOverview();
  const apps = overview.data?.apps ?? [];
  const selected = apps.some((app) => app.app === asked) ? asked : undefined;

  // An address naming no known app shows the list alone.
  useEffect(() => {
    if (overview.data && asked !== undefined && !selected) navigate(pathOf(undefined, since), { replace: true });
  }, [overview.data, asked, selected, since, navigate]);

  return (
    <div className={styles.stack}>
      <h1>Релізи</h1>
      {overview.loading && !overview.data && <p role="status">Завантаження…</p>}
      <ErrorAlert error={overview.error} />
      {overview.data && (
        <>
          {overview.data.mayAct.length === 0 && (
            <p className={styles.notice}>Ви бачите релізи всіх застосунків, але не змінюєте їх: це роблять менеджери релізів.</p>
          )}
          <ReleaseApps apps={apps} mayAct={overview.data.mayAct} selected={selected} linkTo={(app) => pathOf(app, since)} />
          {selected ? (
            <AppHealth key={selected} app={selected} since={since} onWindow={(next) => navigate(pathOf(selected, next))} onReleasesChanged={overview.reload} />
          ) : (
            <p className={styles.muted}>Виберіть застосунок, щоб побачити стан його релізів{overview.data.mayAct.length > 0 ? ' і дії з ними' : ''}.</p>
          )}
        </>
      )}
    </div>
  );
}
