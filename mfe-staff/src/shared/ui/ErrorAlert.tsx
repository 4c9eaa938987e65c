import styles from './console.module.css';

/** Why the last action failed, announced as it appears; nothing while there is no error. */
export function ErrorAlert({ error }: { error: string }) {
  return error ? (
    <p role="alert" className={styles.error}>
      {error}
    </p>
  ) : null;
}
