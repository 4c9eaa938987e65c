import { FOLLOW_UP_LIMITS, LEAD_KIND_LABELS, REPLY_PLACEHOLDER_LABELS, REPLY_PLACEHOLDERS, type LeadKind, type ReplyTemplate } from '@agency/shared';
import styles from '../../shared/ui/console.module.css';

interface ReplyFieldsProps {
  kind: LeadKind;
  reply: ReplyTemplate;
  onChange: (reply: ReplyTemplate) => void;
  /** Why the server refused this reply (an unknown placeholder, say); empty when it did not. */
  error: string;
}

/** The e-mail a visitor gets for one kind of lead: its subject and text, with the placeholders they may name. */
export function ReplyFields({ kind, reply, onChange, error }: ReplyFieldsProps) {
  const hintId = `reply-${kind}-placeholders`;
  const errorId = `reply-${kind}-error`;
  const describedBy = error ? `${errorId} ${hintId}` : hintId;
  return (
    <fieldset className={styles.stack}>
      <legend>{LEAD_KIND_LABELS[kind]}</legend>
      <label className={styles.field}>
        Тема листа
        <input
          required
          maxLength={FOLLOW_UP_LIMITS.subjectMax}
          value={reply.subject}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange({ ...reply, subject: event.target.value })}
        />
      </label>
      <label className={styles.field}>
        Текст листа
        <textarea
          required
          rows={10}
          maxLength={FOLLOW_UP_LIMITS.replyMax}
          value={reply.text}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange({ ...reply, text: event.target.value })}
        />
      </label>
      {error && (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      )}
      <div id={hintId} className={styles.muted}>
        <p>Підстановки, які можна вживати в темі й тексті:</p>
        <ul>
          {REPLY_PLACEHOLDERS.map((name) => (
            <li key={name}>
              <code>{`{${name}}`}</code> — {REPLY_PLACEHOLDER_LABELS[name]}
            </li>
          ))}
        </ul>
      </div>
    </fieldset>
  );
}
