import { kyivDateTime } from './kyiv-time';
import styles from './console.module.css';

/** Who changed version-checked settings last, as a settings page says it above its form. */
export function settingsChangedText(view: { version: number; updatedAt: string | null; updatedBy: string | null }): string {
  if (view.version === 0 || !view.updatedAt) return 'Діють типові налаштування: їх ще ніхто не змінював.';
  return `Востаннє змінено ${kyivDateTime(view.updatedAt)}, ${view.updatedBy ?? 'колишній учасник команди'}.`;
}

/**
 * A save of settings refused because someone saved meanwhile: the form now shows what holds, and
 * the refused edit can be put back into it.
 */
export function SettingsConflict({ message, onRestore }: { message: string; onRestore(): void }) {
  return (
    <div role="alert" className={styles.notice}>
      <p>{message} Нижче показано налаштування, які діють зараз; ваші зміни не збережено.</p>
      <button type="button" className={styles.secondary} onClick={onRestore}>
        Повернути мої зміни у форму
      </button>
    </div>
  );
}
