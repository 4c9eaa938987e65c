import { SPAM_REASON_LABELS, SPAM_SETTINGS_LIMITS, type SpamSettingsUpdate, type SpamSettingsView } from '@agency/shared';
import { staffGet, staffSend } from '../../shared/api/staff-api';
import styles from '../../shared/ui/console.module.css';
import { ErrorAlert } from '../../shared/ui/ErrorAlert';
import { useDocumentTitle } from '../../shared/ui/use-document-title';
import { useLeaveWarning } from '../../shared/ui/use-leave-warning';
import { SettingsStatus } from '../../shared/ui/SettingsStatus';
import { useVersionedSettings } from '../../shared/ui/use-versioned-settings';

const { thresholdMin, thresholdMax, phrasesMax, phraseMaxLength } = SPAM_SETTINGS_LIMITS;

/** What the form holds, as typed: the threshold's text and the phrases one a line. */
interface Draft {
  threshold: string;
  phrases: string;
}

const draftOf = (view: SpamSettingsView): Draft => ({ threshold: String(view.threshold), phrases: view.phrases.join('\n') });

/** The phrases as typed, one a line; blank lines are none (the server also folds spaces and drops repeats). */
const phrasesOf = (text: string) => text.split('\n').map((line) => line.trim()).filter(Boolean);

/**
 * `/staff/spam` (admins): the spam defence's threshold and phrases, changed without a deploy. A
 * save names the version the page loaded; when someone saved meanwhile the server refuses it, the
 * page then shows what holds now and can put the refused edit back into the form.
 */
export function SpamSettingsPage() {
  useDocumentTitle('Спам');
  const { view, draft, edit: replace, save, restore, error, conflict, saved, busy } = useVersionedSettings(
    {
      load: () => staffGet<SpamSettingsView>('/spam-settings'),
      send: (next: Draft, version) => {
        const body: SpamSettingsUpdate = { threshold: Number(next.threshold), phrases: phrasesOf(next.phrases), version };
        return staffSend<SpamSettingsView>('put', '/spam-settings', body);
      },
      draftOf,
      conflictCode: 'SPAM_SETTINGS_CHANGED',
    },
    { threshold: '', phrases: '' },
  );
  const edit = (change: Partial<Draft>) => replace({ ...draft, ...change });

  const changed = !!view && (draft.threshold.trim() !== String(view.threshold) || phrasesOf(draft.phrases).join('\n') !== view.phrases.join('\n'));
  useLeaveWarning(changed);

  const phraseCount = phrasesOf(draft.phrases).length;

  return (
    <div className={styles.stack}>
      <h1>Спам</h1>
      <p className={styles.muted}>Як захист від спаму вирішує, які заявки затримати. Затримана заявка має статус «Спам», і сповіщення про неї не надходять, доки її не повернуть кнопкою «Не спам» на її сторінці.</p>
      <ErrorAlert error={error} />
      {!view && !error && <p role="status">Завантаження…</p>}
      {view && (
        <form className={`${styles.panel} ${styles.stack}`} onSubmit={save} aria-labelledby="spam-settings">
          <h2 id="spam-settings">Налаштування</h2>
          <SettingsStatus view={view} conflict={conflict} onRestore={restore} saved={saved} />
          <label className={styles.field}>
            Поріг
            <input
              type="number"
              inputMode="numeric"
              required
              min={thresholdMin}
              max={thresholdMax}
              step={1}
              value={draft.threshold}
              aria-describedby="spam-threshold-hint"
              onChange={(event) => edit({ threshold: event.target.value })}
            />
          </label>
          <p id="spam-threshold-hint" className={styles.muted}>
            Заявку буде затримано, якщо бали її ознак спаму разом сягають цього числа (від {thresholdMin} до {thresholdMax}).
          </p>
          <label className={styles.field}>
            Фрази спаму
            <textarea rows={12} value={draft.phrases} aria-describedby="spam-phrases-hint" onChange={(event) => edit({ phrases: event.target.value })} />
          </label>
          <p id="spam-phrases-hint" className={styles.muted}>
            Кожна фраза з нового рядка, до {phrasesMax} фраз по {phraseMaxLength} символів; великі й малі літери не розрізняються.
            Заявка з такою фразою отримує бали ознаки «{SPAM_REASON_LABELS['spam-phrase']}». Зараз фраз: {phraseCount}.
          </p>
          <div className={styles.row}>
            <button type="submit" className={styles.button} disabled={busy || !changed}>
              Зберегти
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
