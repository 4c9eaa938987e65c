import { useId, type FormEvent, type ReactNode } from 'react';
import styles from './Form.module.css';

interface FormFrameProps {
  title: string;
  hint: string;
  submitLabel: string;
  submitting: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}

/** Heading, hint, the field grid and the submit button every form of this remote has. */
export function FormFrame({ title, hint, submitLabel, submitting, onSubmit, children }: FormFrameProps) {
  const titleId = useId();
  return (
    <form className={styles.form} aria-labelledby={titleId} aria-busy={submitting} onSubmit={onSubmit}>
      <h3 className={styles.title} id={titleId}>
        {title}
      </h3>
      <p className={styles.hint}>
        {hint} Поля, позначені <span aria-hidden="true">*</span>
        <span className={styles.visuallyHidden}>зірочкою</span>, обовʼязкові.
      </p>
      <div className={styles.grid}>{children}</div>
      <button className={styles.submit} type="submit" disabled={submitting}>
        {submitting ? 'Надсилаємо…' : submitLabel}
      </button>
    </form>
  );
}
