import { useEffect, useState } from 'react';
import type { LeadRoutingMember } from '@agency/shared';
import { fetchLeadRouting, messageOf } from '../../shared/api/staff-api';
import styles from '../../shared/ui/console.module.css';
import { ErrorAlert } from '../../shared/ui/ErrorAlert';
import { LeadRoutingRow } from './LeadRoutingRow';

const HINT_ID = 'lead-routing-telegram-hint';

/**
 * «Розподіл заявок»: a new lead goes in turn to the members who take its kind and are not away;
 * an overdue alert about it reaches its member's Telegram chat. Each member's row is saved alone.
 */
export function LeadRoutingTable() {
  const [members, setMembers] = useState<LeadRoutingMember[] | undefined>(undefined);
  const [error, setError] = useState('');

  useEffect(() => {
    fetchLeadRouting().then(setMembers, (failure: unknown) => setError(messageOf(failure)));
  }, []);

  const saved = (next: LeadRoutingMember) => setMembers((shown) => shown?.map((member) => (member.id === next.id ? next : member)));

  return (
    <section className={`${styles.panel} ${styles.stack}`} aria-labelledby="lead-routing">
      <h2 id="lead-routing">Розподіл заявок</h2>
      <p className={styles.muted}>
        Нова заявка дістається по черзі тим, хто бере заявки її типу й не відсутній. Якщо заявка прострочена, сповіщення про неї надійде в Telegram її
        відповідального.
      </p>
      <p id={HINT_ID} className={styles.muted}>
        Telegram chat id — число (у груп воно відʼємне) або @назва каналу; порожнє поле — сповіщення надійде в загальний чат команди.
      </p>
      <ErrorAlert error={error} />
      {!members && !error && <p role="status">Завантаження…</p>}
      {members && (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <caption className={styles.muted}>Хто які заявки бере</caption>
            <thead>
              <tr>
                <th scope="col">Учасник</th>
                <th scope="col">Заявки</th>
                <th scope="col">Відсутність</th>
                <th scope="col">Чат у Telegram</th>
                <th scope="col">Збереження</th>
              </tr>
            </thead>
            <tbody>
              {members.map((member) => (
                <LeadRoutingRow key={member.id} member={member} hintId={HINT_ID} onSaved={saved} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
