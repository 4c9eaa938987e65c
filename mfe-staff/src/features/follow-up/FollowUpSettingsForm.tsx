import { BRAND, FOLLOW_UP_LIMITS, LEAD_KINDS, type LeadKind, type ReplyTemplate } from '@agency/shared';
import { fetchFollowUpSettings, saveFollowUpSettings } from '../../shared/api/staff-api';
import styles from '../../shared/ui/console.module.css';
import { ErrorAlert } from '../../shared/ui/ErrorAlert';
import { useLeaveWarning } from '../../shared/ui/use-leave-warning';
import { draftChanged, draftOf, refusalOf, replyField, TARGET_FIELD, targetText, updateOf, type FollowUpDraft } from './follow-up-draft';
import { ReplyFields } from './ReplyFields';
import { SettingsStatus } from '../../shared/ui/SettingsStatus';
import { useVersionedSettings } from '../../shared/ui/use-versioned-settings';

const { targetMinutesMin, targetMinutesMax } = FOLLOW_UP_LIMITS;
const { opens, closes } = BRAND.weekdayHours;

const EMPTY: FollowUpDraft = { targetMinutes: '', replies: { contact: { subject: '', text: '' }, applications: { subject: '', text: '' } } };

/**
 * The response target and the visitor's reply for each kind of lead, saved together from the
 * version the form loaded: when someone saved meanwhile, the form shows what holds now and can put
 * the refused edit back; a reply naming an unknown placeholder is refused at its fields.
 */
export function FollowUpSettingsForm() {
  const { view, draft, edit, save, restore, error, fieldErrors, conflict, saved, busy } = useVersionedSettings(
    {
      load: fetchFollowUpSettings,
      send: (next: FollowUpDraft, version) => saveFollowUpSettings(updateOf(next, version)),
      draftOf,
      conflictCode: 'FOLLOW_UP_SETTINGS_CHANGED',
      refusalOf,
    },
    EMPTY,
  );
  const changed = !!view && draftChanged(draft, view);
  useLeaveWarning(changed);
  const editReply = (kind: LeadKind) => (reply: ReplyTemplate) => edit({ ...draft, replies: { ...draft.replies, [kind]: reply } });

  const target = targetText(draft.targetMinutes);

  if (!view) return error ? <ErrorAlert error={error} /> : <p role="status">Завантаження…</p>;
  return (
    <form className={`${styles.panel} ${styles.stack}`} onSubmit={save} aria-labelledby="follow-up-settings">
      <h2 id="follow-up-settings">Відповідь відвідувачам і час на відповідь</h2>
      <SettingsStatus view={view} conflict={conflict} onRestore={restore} saved={saved} />
      <ErrorAlert error={error} />
      <label className={styles.field}>
        Час на першу відповідь, робочих хвилин
        <input
          type="number"
          inputMode="numeric"
          required
          min={targetMinutesMin}
          max={targetMinutesMax}
          step={1}
          value={draft.targetMinutes}
          aria-invalid={fieldErrors[TARGET_FIELD] ? true : undefined}
          aria-describedby={fieldErrors[TARGET_FIELD] ? 'follow-up-target-error follow-up-target-hint' : 'follow-up-target-hint'}
          onChange={(event) => edit({ ...draft, targetMinutes: event.target.value })}
        />
      </label>
      {fieldErrors[TARGET_FIELD] && (
        <p id="follow-up-target-error" className={styles.error}>
          {fieldErrors[TARGET_FIELD]}
        </p>
      )}
      <p id="follow-up-target-hint" className={styles.muted}>
        {target && `Це ${target} робочого часу (пн–пт, ${opens}–${closes} за Києвом). `}
        Заявку, що чекає на першу відповідь довше, буде позначено простроченою (від {targetMinutesMin} до {targetMinutesMax} хвилин).
      </p>
      {LEAD_KINDS.map((kind) => (
        <ReplyFields key={kind} kind={kind} reply={draft.replies[kind]} onChange={editReply(kind)} error={fieldErrors[replyField(kind)] ?? ''} />
      ))}
      <div className={styles.row}>
        <button type="submit" className={styles.button} disabled={busy || !changed}>
          Зберегти
        </button>
      </div>
    </form>
  );
}
