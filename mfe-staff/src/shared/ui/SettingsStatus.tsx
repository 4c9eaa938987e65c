import { kyivDateTime } from './kyiv-time';
import styles from './console.module.css';

/** Who changed version-checked settings last, as a settings page says it above its form. */
function changedText(view: { version: number; updatedAt: string | null; updatedBy: string | null }): string {
  if (view.version === 0 || !view.updatedAt) return 'Діють типові налаштування: їх ще ніхто не змінював.';
  return `Востаннє змінено ${kyivDateTime(view.updatedAt)}, ${view.updatedBy ?? 'колишній учасник команди'}.`;
}

interface SettingsStatusProps {
  view: { version: number; updatedAt: string | null; updatedBy: string | null };
  /** A save refused because someone saved meanwhile: the form now shows what holds. */
  conflict: { message: string } | undefined;
  /** Puts the refused edit back into the form. */
  onRestore(): void;
  saved: boolean;
}

/**
 * What a settings form (saved from the version it loaded) says above its fields: who changed the
 * settings last, a save refused because someone saved meanwhile (with the refused edit one click
 * away), or that the save holds.
 */
export function SettingsStatus({ view, conflict, onRestore, saved }: SettingsStatusProps) {
  return (
    <>
      <p>{changedText(view)}</p>
      {conflict && (
        <div role="alert" className={styles.notice}>
          <p>{conflict.message} Нижче показано налаштування, які діють зараз; ваші зміни не збережено.</p>
          <button type="button" className={styles.secondary} onClick={onRestore}>
            Повернути мої зміни у форму
          </button>
        </div>
      )}
      {saved && (
        <p role="status" className={styles.notice}>
          Збережено. За кілька секунд нові налаштування діятимуть для всіх нових заявок.
        </p>
      )}
    </>
  );
}
