import { useState } from 'react';
import { FOLLOW_UP_LIMITS, LEAD_KINDS, STAFF_ROLE_LABELS, type LeadKind, type LeadRoutingMember, type LeadRoutingUpdate } from '@agency/shared';
import { saveLeadRouting } from '../../shared/api/staff-api';
import styles from '../../shared/ui/console.module.css';
import { refusalOf } from './follow-up-draft';

/** What a member's checkbox of each kind says. */
const TAKES: Record<LeadKind, string> = { contact: 'бере звернення', applications: 'бере відгуки' };

/** The row as edited: the chat id as typed (empty: none). */
interface RoutingDraft {
  kinds: LeadKind[];
  away: boolean;
  telegramChatId: string;
}

const draftOf = (member: LeadRoutingMember): RoutingDraft => ({ kinds: member.kinds, away: member.away, telegramChatId: member.telegramChatId ?? '' });
const updateOf = (draft: RoutingDraft): LeadRoutingUpdate => ({
  kinds: LEAD_KINDS.filter((kind) => draft.kinds.includes(kind)),
  away: draft.away,
  telegramChatId: draft.telegramChatId.trim() || null,
});
const sameAs = (draft: RoutingDraft, member: LeadRoutingMember) => JSON.stringify(updateOf(draft)) === JSON.stringify(updateOf(draftOf(member)));

/** One member's assignment: the kinds they take in turn, away or not, their Telegram chat; saved on its own. */
export function LeadRoutingRow({ member, hintId, onSaved }: { member: LeadRoutingMember; hintId: string; onSaved: (saved: LeadRoutingMember) => void }) {
  const [draft, setDraft] = useState<RoutingDraft>(() => draftOf(member));
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState('');

  const edit = (change: Partial<RoutingDraft>) => {
    setDraft({ ...draft, ...change });
    setSaved(false);
  };
  const toggle = (kind: LeadKind) => edit({ kinds: draft.kinds.includes(kind) ? draft.kinds.filter((each) => each !== kind) : [...draft.kinds, kind] });

  async function save() {
    setBusy(true);
    setError('');
    setSaved(false);
    try {
      const next = await saveLeadRouting(member.id, updateOf(draft));
      setDraft(draftOf(next));
      setSaved(true);
      onSaved(next);
    } catch (failure) {
      setError(refusalOf(failure, new Set()).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <tr>
      <th scope="row">
        {member.email}
        <div className={styles.muted}>{STAFF_ROLE_LABELS[member.role]}</div>
      </th>
      <td>
        {LEAD_KINDS.map((kind) => (
          <div key={kind}>
            <label>
              <input type="checkbox" checked={draft.kinds.includes(kind)} onChange={() => toggle(kind)} /> {TAKES[kind]}
            </label>
          </div>
        ))}
      </td>
      <td>
        <label>
          <input type="checkbox" checked={draft.away} onChange={() => edit({ away: !draft.away })} /> Відсутній
        </label>
      </td>
      <td>
        <div className={styles.field}>
          <input
            aria-label="Telegram chat id"
            aria-describedby={hintId}
            maxLength={FOLLOW_UP_LIMITS.telegramChatIdMax}
            value={draft.telegramChatId}
            onChange={(event) => edit({ telegramChatId: event.target.value })}
          />
        </div>
      </td>
      <td>
        <button type="button" className={styles.secondary} aria-label={`Зберегти: ${member.email}`} disabled={busy || sameAs(draft, member)} onClick={() => void save()}>
          Зберегти
        </button>
        {saved && <p role="status">Збережено</p>}
        {error && (
          <p role="alert" className={styles.error}>
            {error}
          </p>
        )}
      </td>
    </tr>
  );
}
