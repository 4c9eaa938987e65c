import { useEffect, useState } from 'react';
import type { AuditEntry, AuditPage as AuditPageBody } from '@agency/shared';
import { messageOf, staffGet } from '../../shared/api/staff-api';
import styles from '../../shared/ui/console.module.css';
import { ErrorAlert } from '../../shared/ui/ErrorAlert';
import { kyivDateTime } from '../../shared/ui/kyiv-time';
import { useDocumentTitle } from '../../shared/ui/use-document-title';

/** `/staff/audit` (admins): who did what and when, newest first. */
export function AuditPage() {
  useDocumentTitle('Журнал дій');
  const [entries, setEntries] = useState<AuditEntry[]>([]);
  const [next, setNext] = useState<number | null>(null);
  const [error, setError] = useState('');

  const load = (before?: number) =>
    staffGet<AuditPageBody>('/audit', before === undefined ? undefined : { before: String(before) }).then(
      (page) => {
        setEntries((shown) => (before === undefined ? page.entries : [...shown, ...page.entries]));
        setNext(page.next);
      },
      (failure: unknown) => setError(messageOf(failure)),
    );
  useEffect(() => {
    void load();
  }, []);

  return (
    <div className={styles.stack}>
      <h1>Журнал дій</h1>
      <ErrorAlert error={error} />
      <div className={styles.tableWrap}>
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">Час</th>
              <th scope="col">Хто</th>
              <th scope="col">Дія</th>
              <th scope="col">Обʼєкт</th>
              <th scope="col">Адреса</th>
              <th scope="col">Подробиці</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.seq}>
                <td>{kyivDateTime(entry.at)}</td>
                <td>{entry.actor}</td>
                <td>{entry.action}</td>
                <td>{entry.target}</td>
                <td>{entry.address}</td>
                <td className={styles.text}>{Object.keys(entry.detail).length > 0 ? JSON.stringify(entry.detail) : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {next !== null && (
        <button type="button" className={styles.secondary} onClick={() => void load(next)}>
          Показати ще
        </button>
      )}
    </div>
  );
}
