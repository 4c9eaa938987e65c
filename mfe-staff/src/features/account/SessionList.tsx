import type { SessionInfo } from '@agency/shared';
import styles from '../../shared/ui/console.module.css';
import { kyivDateTime } from '../../shared/ui/kyiv-time';

/** Signed-in browsers, each with a button that ends it. */
export function SessionList({ sessions, onEnd }: { sessions: readonly SessionInfo[]; onEnd(id: string): void }) {
  if (sessions.length === 0) return <p className={styles.muted}>Активних сеансів немає.</p>;
  return (
    <ul className={styles.stack}>
      {sessions.map((session) => (
        <li key={session.id}>
          <p>
            {session.current ? 'Цей пристрій' : session.userAgent || 'Невідомий браузер'}; адреса {session.address}; вхід {kyivDateTime(session.createdAt)}, востаннє{' '}
            {kyivDateTime(session.lastSeenAt)}
          </p>
          {!session.current && (
            <button type="button" className={styles.secondary} onClick={() => onEnd(session.id)}>
              Завершити сеанс
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
