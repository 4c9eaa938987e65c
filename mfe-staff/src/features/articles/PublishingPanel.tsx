import { useState, type FormEvent } from 'react';
import type { ApiErrorBody, ArticleDetail } from '@agency/shared';
import type { AxiosError } from 'axios';
import { messageOf, staffSend } from '../../shared/api/staff-api';
import styles from '../../shared/ui/console.module.css';
import { ErrorAlert } from '../../shared/ui/ErrorAlert';
import { isoToKyivWallTime, kyivDateTime, kyivWallTimeToIso, kyivZoneLabel } from '../../shared/ui/kyiv-time';

/** The zone the typed time falls in (summer or winter time), once it is a whole date and time. */
function zoneOf(wallTime: string): string {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(wallTime) ? ` (${kyivZoneLabel(kyivWallTimeToIso(wallTime))})` : ' (за київським часом)';
}

/** The API's refusal with what each field lacks, as one message. */
function refusalText(failure: unknown): string {
  const fields = (failure as AxiosError<ApiErrorBody>).response?.data?.error?.fields;
  return fields ? `${messageOf(failure)}: ${Object.values(fields).join('; ')}` : messageOf(failure);
}

interface PublishingPanelProps {
  article: ArticleDetail;
  /** Whether everything on screen is saved: what is published is the saved working copy. */
  saved: boolean;
  version: () => number;
  onChanged: (article: ArticleDetail) => void;
}

/** Publish now, at a time in Kyiv, or take the article off the site. */
export function PublishingPanel({ article, saved, version, onChanged }: PublishingPanelProps) {
  const [when, setWhen] = useState(() => isoToKyivWallTime(article.publishAt ?? new Date(Date.now() + 86_400_000).toISOString()));
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const act = async (path: string, body: object) => {
    setBusy(true);
    setError('');
    try {
      onChanged(await staffSend<ArticleDetail>('post', `/articles/${article.id}/${path}`, { version: version(), ...body }));
    } catch (failure) {
      setError(refusalText(failure));
    } finally {
      setBusy(false);
    }
  };
  const schedule = (event: FormEvent) => {
    event.preventDefault();
    void act('schedule', { publishAt: kyivWallTimeToIso(when) });
  };
  const live = article.state === 'published';

  return (
    <section className={`${styles.panel} ${styles.stack}`} aria-labelledby="publishing">
      <h2 id="publishing">Публікація</h2>
      {article.state === 'scheduled' && article.publishAt && (
        <p>
          Заплановано на <strong>{kyivDateTime(article.publishAt)}</strong> ({kyivZoneLabel(article.publishAt)}).
        </p>
      )}
      {!saved && <p className={styles.muted}>Публікується збережений текст: дочекайтеся збереження.</p>}
      <ErrorAlert error={error} />
      <button type="button" className={styles.button} disabled={busy || !saved || (live && !article.unpublishedChanges)} onClick={() => void act('publish', {})}>
        {live ? 'Опублікувати зміни' : 'Опублікувати зараз'}
      </button>
      {!live && (
        <form className={styles.stack} onSubmit={schedule} aria-label="Запланувати публікацію">
          <label className={styles.field}>
            Дата й час{zoneOf(when)}
            <input type="datetime-local" value={when} onChange={(event) => setWhen(event.target.value)} required />
          </label>
          <button type="submit" className={styles.secondary} disabled={busy || !saved || !when}>
            Запланувати
          </button>
        </form>
      )}
      {(live || article.state === 'scheduled') && (
        <button type="button" className={styles.secondary} disabled={busy} onClick={() => void act('unpublish', {})}>
          {live ? 'Зняти з публікації' : 'Скасувати заплановану публікацію'}
        </button>
      )}
    </section>
  );
}
