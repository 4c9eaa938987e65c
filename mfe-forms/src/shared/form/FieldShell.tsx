import type { ReactNode } from 'react';
import { cx } from './class-names';
import styles from './Form.module.css';

interface FieldShellProps {
  /** Id of the control the label points at. */
  controlId: string;
  label: string;
  required?: boolean;
  error?: string;
  /** Spans both columns of the form grid. */
  wide?: boolean;
  children: ReactNode;
}

export const errorIdFor = (controlId: string) => `${controlId}-error`;

/** Label, control and error message of one field; the '*' is visual, `required` is on the control. */
export function FieldShell({ controlId, label, required, error, wide, children }: FieldShellProps) {
  return (
    <div className={cx(styles.field, wide && styles.wide)}>
      <label className={styles.label} htmlFor={controlId}>
        {label}
        {required && (
          <span className={styles.requiredMark} aria-hidden="true">
            {' *'}
          </span>
        )}
      </label>
      {children}
      {error && (
        <p className={styles.error} id={errorIdFor(controlId)}>
          {error}
        </p>
      )}
    </div>
  );
}
