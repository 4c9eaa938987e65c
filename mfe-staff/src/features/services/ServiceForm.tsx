import { useEffect, useState, type FormEvent } from 'react';
import { formatPriceFrom, SERVICE_LIMITS, type ServiceConflict, type StaffService } from '@agency/shared';
import type { AxiosError } from 'axios';
import { messageOf, staffSend, staffUpload, statusOf } from '../../shared/api/staff-api';
import styles from '../../shared/ui/console.module.css';
import { ErrorAlert } from '../../shared/ui/ErrorAlert';
import { ImageDrop } from '../../shared/ui/ImageDrop';

/** What the form holds: the service's fields as the editor has them on screen. */
export interface ServiceDraft {
  title: string;
  description: string;
  icon: string;
  features: string[];
  priceFrom: number | null;
}

const draftOf = ({ title, description, icon, features, priceFrom }: StaffService): ServiceDraft => ({ title, description, icon, features, priceFrom });

/** The features as typed, one a line; blank lines are not features. */
const featuresOf = (text: string) => text.split('\n').map((line) => line.trim()).filter(Boolean);

/**
 * One service's title, description, icon (SVG, PNG or WebP), features and the optional «від N ₴»;
 * saved, published or hidden. A save made from an older version is refused, and the form says who
 * changed it meanwhile.
 */
export function ServiceForm({ service, onDraft, onSaved }: { service: StaffService; onDraft: (draft: ServiceDraft, changed: boolean) => void; onSaved: (service: StaffService) => void }) {
  const [current, setCurrent] = useState(service);
  const [title, setTitle] = useState(service.title);
  const [description, setDescription] = useState(service.description);
  const [icon, setIcon] = useState(service.icon);
  const [features, setFeatures] = useState(service.features.join('\n'));
  const [price, setPrice] = useState(service.priceFrom === null ? '' : String(service.priceFrom));
  const [error, setError] = useState('');
  const [conflict, setConflict] = useState<StaffService | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  const draft: ServiceDraft = { title: title.trim(), description: description.trim(), icon, features: featuresOf(features), priceFrom: price.trim() === '' ? null : Number(price) };
  const changed = JSON.stringify(draft) !== JSON.stringify(draftOf(current));
  const draftKey = JSON.stringify(draft);
  useEffect(() => {
    onDraft(JSON.parse(draftKey) as ServiceDraft, changed);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the draft's text is its identity
  }, [draftKey, changed]);

  const load = (next: StaffService) => {
    setCurrent(next);
    setTitle(next.title);
    setDescription(next.description);
    setIcon(next.icon);
    setFeatures(next.features.join('\n'));
    setPrice(next.priceFrom === null ? '' : String(next.priceFrom));
    setConflict(undefined);
  };

  const send = async (method: 'put' | 'post', path: string, body: object) => {
    setBusy(true);
    setError('');
    try {
      const saved = await staffSend<StaffService>(method, path, { version: current.version, ...body });
      setCurrent(saved);
      onSaved(saved);
      if (method === 'put') load(saved);
    } catch (failure) {
      const answer = (failure as AxiosError<ServiceConflict>).response?.data;
      if (statusOf(failure) === 409 && answer?.error.code === 'SERVICE_CHANGED') setConflict(answer.current);
      else setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void send('put', `/services/${service.id}`, draft);
  };

  const uploadIcon = async (file: File) => {
    setError('');
    try {
      setIcon((await staffUpload<{ url: string }>(`/services/${service.id}/icon`, file)).url);
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  return (
    <form className={`${styles.panel} ${styles.stack}`} onSubmit={submit} aria-labelledby="service-form">
      <h2 id="service-form">{current.title}</h2>
      <p>{current.published ? 'Показується на головній.' : 'Прихована: відвідувачі її не бачать.'}</p>
      {conflict && (
        <div role="alert" className={styles.notice}>
          <p>{conflict.updatedBy ?? 'Хтось інший'} змінив цю послугу, поки ви її редагували. Ваші зміни не збережено.</p>
          <button type="button" className={styles.secondary} onClick={() => load(conflict)}>
            Показати поточну версію
          </button>
        </div>
      )}
      <ErrorAlert error={error} />
      <label className={styles.field}>
        Назва
        <input value={title} maxLength={SERVICE_LIMITS.title} onChange={(event) => setTitle(event.target.value)} required />
      </label>
      <label className={styles.field}>
        Опис
        <textarea value={description} maxLength={SERVICE_LIMITS.description} rows={4} onChange={(event) => setDescription(event.target.value)} required />
      </label>
      <div className={styles.row}>
        <img src={icon} alt="Поточна іконка" width={56} height={56} />
        <ImageDrop label="Іконка" hint="SVG, PNG чи WebP: перетягніть сюди або виберіть файл" accept="image/svg+xml,image/png,image/webp" onFile={(file) => void uploadIcon(file)} />
      </div>
      <label className={styles.field}>
        Що входить (кожен пункт з нового рядка, до {SERVICE_LIMITS.features})
        <textarea value={features} rows={5} onChange={(event) => setFeatures(event.target.value)} />
      </label>
      <label className={styles.field}>
        Ціна «від», ₴ (порожньо: без ціни)
        <input type="number" inputMode="numeric" min={1} max={SERVICE_LIMITS.priceFrom} step={1} value={price} onChange={(event) => setPrice(event.target.value)} />
      </label>
      {draft.priceFrom !== null && Number.isInteger(draft.priceFrom) && draft.priceFrom > 0 && <p className={styles.muted}>На картці: {formatPriceFrom(draft.priceFrom)}</p>}
      <div className={styles.row}>
        <button type="submit" className={styles.button} disabled={busy || !changed}>
          Зберегти
        </button>
        <button type="button" className={styles.secondary} disabled={busy || changed} onClick={() => void send('post', `/services/${service.id}/${current.published ? 'unpublish' : 'publish'}`, {})}>
          {current.published ? 'Приховати з головної' : 'Показати на головній'}
        </button>
      </div>
    </form>
  );
}
