import { LEAD_FIELD_LABELS, type LeadDetail } from '@agency/shared';
import styles from './console.module.css';

/** What the visitor sent, field by field in the form's order, as the console shows a lead. */
export function LeadFields({ fields, testId }: { fields: LeadDetail['fields']; testId?: string }) {
  return (
    <dl className={styles.facts} data-testid={testId}>
      {fields.map((field) => (
        <div key={field.name} style={{ display: 'contents' }}>
          <dt>{LEAD_FIELD_LABELS[field.name] ?? field.name}</dt>
          <dd>
            <p className={styles.text}>{field.value || '—'}</p>
          </dd>
        </div>
      ))}
    </dl>
  );
}
