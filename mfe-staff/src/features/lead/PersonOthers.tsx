import type { ReactNode } from 'react';
import { LEAD_KIND_LABELS, LEAD_STATUS_LABELS, STAFF_PATHS, type PersonLead } from '@agency/shared';
import { Link } from '@agency/shared/router';
import styles from '../../shared/ui/console.module.css';
import { kyivDateTime } from '../../shared/ui/kyiv-time';

interface PersonOthersProps {
  others: PersonLead[];
  /** Shows «Відʼєднати від цієї людини» (an editor's, for a lead joined to others). */
  canUnlink: boolean;
  unlinking: boolean;
  onUnlink: () => void;
  /** What the last unlink said: done, or why not. */
  children?: ReactNode;
}

/**
 * The person's other leads, newest first, each linking to its page; editors unlink a lead joined
 * to them by mistake (another person with the same e-mail or phone).
 */
export function PersonOthers({ others, canUnlink, unlinking, onUnlink, children }: PersonOthersProps) {
  return (
    <section className={styles.panel} aria-labelledby="lead-person">
      <h2 id="lead-person">Інші звернення цієї людини</h2>
      {others.length === 0 ? (
        <p className={styles.muted}>Інших звернень немає.</p>
      ) : (
        <ul>
          {others.map((other) => (
            <li key={other.id}>
              <Link to={`${STAFF_PATHS.home}/leads/${other.id}`}>
                {LEAD_KIND_LABELS[other.kind]} від {kyivDateTime(other.receivedAt)}
              </Link>
              {`: «${LEAD_STATUS_LABELS[other.status]}»`}
              {other.subject && `, ${other.subject}`}
            </li>
          ))}
        </ul>
      )}
      {canUnlink && (
        <div className={styles.row}>
          <button type="button" className={styles.secondary} disabled={unlinking} aria-describedby="lead-unlink-hint" onClick={onUnlink}>
            Відʼєднати від цієї людини
          </button>
          <p id="lead-unlink-hint" className={styles.muted}>
            Якщо це інша людина з тим самим e-mail чи телефоном: заявка стоятиме у вхідних окремо.
          </p>
        </div>
      )}
      {children}
    </section>
  );
}
