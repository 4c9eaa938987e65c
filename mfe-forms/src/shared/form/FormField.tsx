import { FieldShell, errorIdFor } from './FieldShell';
import { cx } from './class-names';
import styles from './Form.module.css';

interface FormFieldProps {
  id: string;
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email' | 'tel';
  /** A textarea instead of a one-line input. */
  multiline?: boolean;
  required?: boolean;
  autoComplete?: string;
  error?: string;
  wide?: boolean;
}

/** A labelled text input or textarea with the server's message for it, if any. */
export function FormField({
  id,
  name,
  label,
  value,
  onChange,
  type = 'text',
  multiline,
  required,
  autoComplete,
  error,
  wide,
}: FormFieldProps) {
  const common = {
    id,
    name,
    value,
    required,
    autoComplete,
    className: cx(styles.control, multiline && styles.textarea),
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorIdFor(id) : undefined,
  };
  return (
    <FieldShell controlId={id} label={label} required={required} error={error} wide={wide || multiline}>
      {multiline ? (
        <textarea {...common} rows={5} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input {...common} type={type} onChange={(event) => onChange(event.target.value)} />
      )}
    </FieldShell>
  );
}
