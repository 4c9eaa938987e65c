import { useEffect, useState } from 'react';
import { messageOf, saveWeeklyReport } from '../../shared/api/staff-api';
import styles from '../../shared/ui/console.module.css';
import { ErrorAlert } from '../../shared/ui/ErrorAlert';
import overview from './overview.module.css';

interface WeeklyReportSettingProps {
  /** Whether the admin gets the e-mail now, as the dashboard says. */
  weeklyReport: boolean;
  /** Where it goes: the admin's own address. */
  email: string;
}

/** An admin's own weekly e-mail of the dashboard, on or off, saved as it is ticked. */
export function WeeklyReportSetting({ weeklyReport, email }: WeeklyReportSettingProps) {
  const [checked, setChecked] = useState(weeklyReport);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<boolean | undefined>(undefined);
  const [error, setError] = useState('');
  useEffect(() => setChecked(weeklyReport), [weeklyReport]);

  async function choose(next: boolean) {
    setChecked(next);
    setBusy(true);
    setSaved(undefined);
    setError('');
    try {
      await saveWeeklyReport({ weeklyReport: next });
      setSaved(next);
    } catch (failure) {
      setChecked(!next);
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className={`${styles.panel} ${styles.stack}`} aria-labelledby="overview-weekly">
      <h2 id="overview-weekly">Щотижневий звіт</h2>
      <label className={overview.checkbox}>
        <input type="checkbox" checked={checked} disabled={busy} aria-describedby="overview-weekly-hint" onChange={(event) => void choose(event.target.checked)} />
        Надсилати мені щотижневий звіт (понеділок, 09:00)
      </label>
      <p id="overview-weekly-hint" className={styles.muted}>
        Головне за минулий тиждень листом на {email}, щопонеділка о 09:00 за Києвом.
      </p>
      {saved !== undefined && (
        <p role="status" className={styles.notice}>
          {saved ? 'Збережено. Звіт надходитиме щопонеділка.' : 'Збережено. Звіт більше не надходитиме.'}
        </p>
      )}
      <ErrorAlert error={error} />
    </section>
  );
}
