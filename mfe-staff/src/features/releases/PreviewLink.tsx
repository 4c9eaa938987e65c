import { useId, useRef, useState } from 'react';
import styles from '../../shared/ui/console.module.css';

/**
 * A staged release's preview link: shown in a field of its own, and copied at a press. Where the
 * Clipboard API is missing or refused (an insecure origin, a denied permission), the link is
 * selected in the field with a word on how to copy it by hand.
 */
export function PreviewLink({ url, release }: { url: string; release: string }) {
  const field = useRef<HTMLInputElement>(null);
  const id = useId();
  const [copied, setCopied] = useState<'yes' | 'by-hand' | undefined>(undefined);

  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(url);
      setCopied('yes');
    } catch {
      field.current?.focus();
      field.current?.select();
      setCopied('by-hand');
    }
  };

  return (
    <div className={styles.stack}>
      <div className={styles.field}>
        <label htmlFor={id}>Посилання попереднього перегляду {release} (діє 24 години, лише в одному браузері)</label>
        <input id={id} ref={field} type="url" readOnly value={url} onFocus={(event) => event.currentTarget.select()} />
      </div>
      <div className={styles.row}>
        <button type="button" className={styles.secondary} onClick={() => void copy()}>
          Копіювати посилання
        </button>
        <a href={url} target="_blank" rel="noopener noreferrer">
          Відкрити перегляд
        </a>
      </div>
      <p role="status" className={styles.muted}>
        {copied === 'yes' ? 'Посилання скопійовано.' : copied === 'by-hand' ? 'Не вдалося скопіювати автоматично: посилання виділено в полі, скопіюйте його (Ctrl+C або ⌘C).' : ''}
      </p>
    </div>
  );
}
