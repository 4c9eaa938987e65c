import { useEffect, useState } from 'react';
import { countOf, type BackupOverview, type BackupStatusView } from '@agency/shared';
import { messageOf, staffGet } from '../../shared/api/staff-api';
import styles from '../../shared/ui/console.module.css';
import { ErrorAlert } from '../../shared/ui/ErrorAlert';
import { kyivDateTime } from '../../shared/ui/kyiv-time';
import { useDocumentTitle } from '../../shared/ui/use-document-title';
import { agoText, alertText, COPIES, everyText, KIND_LABELS, REASON_LABELS, sizeText } from './backup-figures';
import backupStyles from './backups.module.css';

function Alerts({ overview, status }: { overview: BackupOverview; status: BackupStatusView }) {
  if (overview.alerts.length === 0) {
    return (
      <p role="status" className={styles.notice}>
        Усе гаразд: резервні копії свіжі, перевірка відновлення проходить.
      </p>
    );
  }
  return (
    <div role="alert" className={backupStyles.warning}>
      <h2>Увага</h2>
      <ul>
        {overview.alerts.map((alert) => (
          <li key={alert}>{alertText(alert, status)}</li>
        ))}
      </ul>
    </div>
  );
}

function Status({ status }: { status: BackupStatusView }) {
  const { newest, newestVerified } = status;
  return (
    <>
      <section className={styles.panel} aria-labelledby="backup-newest">
        <h2 id="backup-newest">Остання копія</h2>
        {newest ? (
          <dl className={styles.facts}>
            <dt>Зроблено</dt>
            <dd>
              {agoText(newest.ageSeconds)} ({kyivDateTime(newest.takenAt)})
            </dd>
            <dt>Розмір</dt>
            <dd>{sizeText(newest.bytes)}</dd>
            <dt>Причина</dt>
            <dd>{REASON_LABELS[newest.reason]}</dd>
          </dl>
        ) : (
          <p>Жодної резервної копії ще немає.</p>
        )}
      </section>
      <section className={styles.panel} aria-labelledby="backup-verified">
        <h2 id="backup-verified">Остання перевірена копія</h2>
        <p className={styles.muted}>Найновіша копія, з якої перевірка відновлення справді відновила базу.</p>
        {newestVerified ? (
          <dl className={styles.facts}>
            <dt>Зроблено</dt>
            <dd>
              {agoText(newestVerified.ageSeconds)} ({kyivDateTime(newestVerified.takenAt)})
            </dd>
            <dt>Перевірена</dt>
            <dd>{kyivDateTime(newestVerified.verifiedAt)}</dd>
          </dl>
        ) : (
          <p>Жодну копію ще не перевірено.</p>
        )}
      </section>
      <section className={styles.panel} aria-labelledby="backup-store">
        <h2 id="backup-store">Сховище</h2>
        <dl className={styles.facts}>
          <dt>Де</dt>
          <dd>
            <code>{status.store}</code>
          </dd>
          <dt>Що</dt>
          <dd>{KIND_LABELS[status.kind]}</dd>
          <dt>Зберігається</dt>
          <dd>
            {countOf(status.count, COPIES)}, разом {sizeText(status.totalBytes)}
          </dd>
          <dt>Розклад</dt>
          <dd>
            повна копія {everyText(status.intervalMs)}, перевірка відновлення {everyText(status.verifyIntervalMs)}
          </dd>
        </dl>
      </section>
    </>
  );
}

/** `/staff/backups` (admins): whether the database's backups are fresh and proven, and where they are. */
export function BackupsPage() {
  useDocumentTitle('Резервні копії');
  const [overview, setOverview] = useState<BackupOverview>();
  const [error, setError] = useState('');

  useEffect(() => {
    staffGet<BackupOverview>('/backups').then(setOverview, (failure: unknown) => setError(messageOf(failure)));
  }, []);

  return (
    <div className={styles.stack}>
      <h1>Резервні копії</h1>
      <ErrorAlert error={error} />
      {!overview && !error && <p role="status">Завантаження…</p>}
      {overview && !overview.status && <p className={styles.notice}>Резервне копіювання вимкнено (BACKUP_STORE=off): якщо диск сервера пропаде, дані сайту буде втрачено.</p>}
      {overview?.status && (
        <>
          <Alerts overview={overview} status={overview.status} />
          <Status status={overview.status} />
        </>
      )}
    </div>
  );
}
