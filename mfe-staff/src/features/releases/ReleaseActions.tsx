import { useEffect, useId, useState, type FormEvent } from 'react';
import type { StaffReleaseApp, StaffReleaseChanged } from '@agency/shared';
import { messageOf, statusOf } from '../../shared/api/staff-api';
import styles from '../../shared/ui/console.module.css';
import { ErrorAlert } from '../../shared/ui/ErrorAlert';
import { ConfirmDialog } from './ConfirmDialog';
import { PreviewLink } from './PreviewLink';
import { releaseChoices } from './release-choices';
import { shareText } from './release-format';
import { sendReleaseChange, type ReleaseChange } from './release-requests';
import releases from './releases.module.css';

/** A change without the state it acts on: the revision shown when it was asked for is added as it is sent. */
type Change = ReleaseChange extends infer C ? (C extends unknown ? Omit<C, 'expect'> : never) : never;

interface Pending {
  title: string;
  text: string;
  confirmLabel: string;
  change: Change;
  /** What the console says once it is done. */
  done: string;
  /** The app's revision the dialog described: a reload landing while it is open does not change what is confirmed. */
  revision: number;
}

/** What a button asks to confirm: the revision is the screen's when the dialog opens. */
type Asked = Omit<Pending, 'revision'>;

interface ReleaseActionsProps {
  state: StaffReleaseApp;
  /** The change was made: its answer holds the app's new state. */
  onChanged(changed: StaffReleaseChanged): void;
  /** The change was refused: the screen's state is stale, read it again. */
  onRefused(): void;
}

const SHARE_RANGE = { min: 0.1, max: 100, step: 0.1 };

/** A button that opens the confirming dialog for `pending` (nothing to confirm: does nothing). */
function AskButton({ label, pending, ask, primary = false }: { label: string; pending: Asked | undefined; ask(next: Asked): void; primary?: boolean }) {
  return (
    <button type="button" className={primary ? styles.button : styles.secondary} onClick={() => pending && ask(pending)}>
      {label}
    </button>
  );
}

/**
 * What a release manager does to an app's releases: stage a kept release and copy its preview
 * link, start a canary at a share or change the running one's share, promote, roll back, abort.
 * Each asks first, naming what will happen, and is sent with the app's revision this screen
 * shows: if the state moved on meanwhile (another tab, the command line, the site's own canary
 * decision), the API refuses with what changed, which is shown, and the screen is read again.
 */
export function ReleaseActions({ state, onChanged, onRefused }: ReleaseActionsProps) {
  const id = useId();
  const { app, candidate, current, previous } = state;
  const options = releaseChoices(state);
  const [chosen, setChosen] = useState('');
  const [share, setShare] = useState('10');
  const [newShare, setNewShare] = useState('');
  // The field starts from the running candidate's share, again whenever it changes.
  const runningShare = candidate?.share;
  useEffect(() => setNewShare(runningShare === undefined ? '' : String(runningShare)), [runningShare]);
  const [pending, setPending] = useState<Pending | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [done, setDone] = useState('');
  const [preview, setPreview] = useState<{ url: string; release: string } | undefined>(undefined);
  const release = options.find((entry) => entry.release.id === chosen)?.release ?? options[0]?.release;
  const currentText = current ? current.id : 'збірка з теки dist';

  const ask = (next: Asked) => {
    setError('');
    setDone('');
    setPending({ ...next, revision: state.revision });
  };

  const confirm = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      const changed = await sendReleaseChange(app, { ...pending.change, expect: { revision: pending.revision } } as ReleaseChange);
      setDone(pending.done);
      if (changed.previewUrl && pending.change.command === 'stage') setPreview({ url: changed.previewUrl, release: pending.change.release });
      onChanged(changed);
    } catch (failure) {
      setError(messageOf(failure));
      if (statusOf(failure) === 409) onRefused();
    } finally {
      setBusy(false);
      setPending(undefined);
    }
  };

  const shareOf = (text: string) => {
    const value = Number(text.replace(',', '.'));
    return Number.isFinite(value) && value > 0 && value <= 100 ? value : undefined;
  };

  const startCanary = (event: FormEvent) => {
    event.preventDefault();
    const percent = shareOf(share);
    if (!release) return;
    if (percent === undefined) return setError('Частка відвідувачів — число більше 0 і не більше 100');
    ask({
      title: 'Почати канарку?',
      text: `Реліз ${release.id} отримуватимуть ${shareText(percent)} відвідувачів ${app}; решта — ${currentText}. Сайт оцінюватиме його за помилками та збоями завантаження й відкотить сам, якщо він гірший за поточний; поточним його робите ви.`,
      confirmLabel: 'Почати канарку',
      change: { command: 'canary', release: release.id, share: percent },
      done: `Канарку запущено: ${release.id} отримують ${shareText(percent)} відвідувачів.`,
    });
  };

  const changeShare = (event: FormEvent) => {
    event.preventDefault();
    const percent = shareOf(newShare);
    if (!candidate) return;
    if (percent === undefined) return setError('Частка відвідувачів — число більше 0 і не більше 100');
    ask({
      title: 'Змінити частку кандидата?',
      text: `Кандидата ${candidate.id} отримуватимуть ${shareText(percent)} відвідувачів ${app} замість ${shareText(candidate.share)}. Його правила оцінки не змінюються.`,
      confirmLabel: 'Змінити частку',
      change: { command: 'canary', release: candidate.id, share: percent, minViews: candidate.minViews, promoteAfter: candidate.promoteAfter },
      done: `Частку кандидата змінено: ${shareText(percent)} відвідувачів.`,
    });
  };

  return (
    <section className={`${styles.panel} ${styles.stack}`} aria-labelledby={`${id}-actions`}>
      <h3 id={`${id}-actions`}>Дії з релізами {app}</h3>
      {candidate ? (
        <>
          <p>
            Кандидат <code>{candidate.id}</code> отримують {shareText(candidate.share)} відвідувачів.
          </p>
          <form className={styles.row} onSubmit={changeShare}>
            <div className={styles.field}>
              <label htmlFor={`${id}-new-share`}>Нова частка відвідувачів, %</label>
              <input id={`${id}-new-share`} type="number" inputMode="decimal" {...SHARE_RANGE} required value={newShare} onChange={(event) => setNewShare(event.target.value)} />
            </div>
            <button type="submit" className={styles.secondary}>
              Змінити частку
            </button>
          </form>
          <div className={styles.row}>
            <AskButton
              primary
              label="Зробити кандидата поточним"
              ask={ask}
              pending={{
                title: 'Зробити кандидата поточним?',
                text: `Реліз ${candidate.id} отримуватимуть усі відвідувачі ${app}; зараз поточний — ${currentText}, до нього можна буде відкотитися.`,
                confirmLabel: 'Зробити поточним',
                change: { command: 'promote' },
                done: `${candidate.id} тепер поточний.`,
              }}
            />
            <AskButton
              label="Відкотити кандидата"
              ask={ask}
              pending={{
                title: 'Відкотити кандидата?',
                text: `Кандидата ${candidate.id} більше не отримає жоден відвідувач ${app}: усі отримуватимуть ${currentText}. В історії це буде відкат.`,
                confirmLabel: 'Відкотити кандидата',
                change: { command: 'rollback' },
                done: `Кандидата ${candidate.id} відкочено.`,
              }}
            />
            <AskButton
              label="Скасувати канарку"
              ask={ask}
              pending={{
                title: 'Скасувати канарку?',
                text: `Кандидата ${candidate.id} більше не отримає жоден відвідувач ${app}: усі отримуватимуть ${currentText}. Реліз залишиться збереженим.`,
                confirmLabel: 'Скасувати канарку',
                change: { command: 'abort' },
                done: 'Канарку скасовано.',
              }}
            />
          </div>
        </>
      ) : (
        current &&
        previous && (
          <div className={styles.row}>
            <AskButton
              label="Відкотити до попереднього"
              ask={ask}
              pending={{
                title: 'Відкотити реліз?',
                text: `Поточним для всіх відвідувачів ${app} знову стане ${previous.id} замість ${current.id}.`,
                confirmLabel: 'Відкотити',
                change: { command: 'rollback' },
                done: `Відкочено: поточний знову ${previous.id}.`,
              }}
            />
          </div>
        )
      )}
      {options.length > 0 ? (
        <form className={styles.stack} onSubmit={startCanary}>
          <div className={styles.field}>
            <label htmlFor={`${id}-release`}>Реліз</label>
            <select id={`${id}-release`} className={releases.select} value={release?.id ?? ''} onChange={(event) => setChosen(event.target.value)}>
              {options.map((entry) => (
                <option key={entry.release.id} value={entry.release.id}>
                  {entry.release.id} ({entry.role})
                </option>
              ))}
            </select>
          </div>
          <div className={styles.row}>
            <AskButton
              label="Підготувати посилання перегляду"
              ask={ask}
              pending={release && {
                title: 'Підготувати посилання перегляду?',
                text: `Реліз ${release.id} буде записано як підготовлений; жоден відвідувач його не отримає, лише браузер, що відкриє посилання перегляду.`,
                confirmLabel: 'Підготувати посилання',
                change: { command: 'stage', release: release.id },
                done: `Посилання перегляду для ${release.id} готове.`,
              }}
            />
            <AskButton
              label="Зробити поточним"
              ask={ask}
              pending={release && {
                title: 'Зробити реліз поточним?',
                text: `Реліз ${release.id} отримуватимуть усі відвідувачі ${app} замість ${currentText}${candidate ? `; кандидат ${candidate.id} залишиться кандидатом, якщо це не він` : ''}.`,
                confirmLabel: 'Зробити поточним',
                change: { command: 'promote', release: release.id },
                done: `${release.id} тепер поточний.`,
              }}
            />
          </div>
          {!candidate && (
            <div className={styles.row}>
              <div className={styles.field}>
                <label htmlFor={`${id}-share`}>Частка відвідувачів для канарки, %</label>
                <input id={`${id}-share`} type="number" inputMode="decimal" {...SHARE_RANGE} required value={share} onChange={(event) => setShare(event.target.value)} />
              </div>
              <button type="submit" className={styles.button}>
                Почати канарку
              </button>
            </div>
          )}
        </form>
      ) : (
        <p className={styles.muted}>Інших збережених релізів немає: канарку чи перегляд можна зробити, коли команда опублікує новий.</p>
      )}
      <ErrorAlert error={error} />
      {done && (
        <p role="status" className={styles.notice}>
          {done}
        </p>
      )}
      {preview && <PreviewLink url={preview.url} release={preview.release} />}
      {pending && (
        <ConfirmDialog
          title={pending.title}
          text={pending.text}
          confirmLabel={pending.confirmLabel}
          busy={busy}
          onConfirm={() => void confirm()}
          onCancel={() => setPending(undefined)}
        />
      )}
    </section>
  );
}
