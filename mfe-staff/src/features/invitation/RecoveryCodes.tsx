import styles from '../../shared/ui/console.module.css';

/** Recovery codes, shown once: the person writes them down or stores them before going on. */
export function RecoveryCodes({ codes, onDone }: { codes: readonly string[]; onDone(): void }) {
  return (
    <section className={styles.stack} aria-labelledby="recovery-codes">
      <h2 id="recovery-codes">Коди відновлення</h2>
      <p>
        Збережіть ці коди в надійному місці: кожен дає змогу увійти один раз, якщо ключ доступу чи застосунок недоступні. Більше їх
        не буде показано.
      </p>
      <ul className={styles.codes} data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <button type="button" className={styles.button} onClick={onDone}>
        Я зберіг коди
      </button>
    </section>
  );
}
