import { useEffect, useId, useRef } from 'react';
import styles from '../../shared/ui/console.module.css';
import releases from './releases.module.css';

interface ConfirmDialogProps {
  title: string;
  /** What will happen, in words. */
  text: string;
  confirmLabel: string;
  busy: boolean;
  onConfirm(): void;
  onCancel(): void;
}

/**
 * Asks before a change of releases: a modal dialog naming what will happen, with the change and
 * «Скасувати» (Escape too). Focus goes to «Скасувати», so Enter never changes releases by itself.
 */
export function ConfirmDialog({ title, text, confirmLabel, busy, onConfirm, onCancel }: ConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const id = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    // A browser without modal dialogs (and jsdom) shows it open in place.
    if (typeof element.showModal === 'function') {
      if (!element.open) element.showModal();
    } else element.setAttribute('open', '');
    cancel.current?.focus();
    return () => {
      if (typeof element.close === 'function' && element.open) element.close();
    };
  }, []);

  return (
    <dialog
      ref={dialog}
      className={releases.dialog}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      <p id={`${id}-text`}>{text}</p>
      <div className={styles.row}>
        <button type="button" className={styles.button} disabled={busy} onClick={onConfirm}>
          {busy ? 'Виконується…' : confirmLabel}
        </button>
        <button type="button" ref={cancel} className={styles.secondary} disabled={busy} onClick={onCancel}>
          Скасувати
        </button>
      </div>
    </dialog>
  );
}
