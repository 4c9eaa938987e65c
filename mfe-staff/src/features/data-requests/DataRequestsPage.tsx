import { useState, type FormEvent } from 'react';
import {
  CORRECTABLE_FIELDS,
  countOf,
  DATA_REQUEST_ANSWER_DAYS,
  DAYS,
  LEAD_FIELD_LABELS,
  LEAD_KIND_LABELS,
  LEAD_STATUS_LABELS,
  STAFF_PATHS,
  type CorrectableField,
  type DataSubjectBody,
  type DataSubjectReport,
  type ErasureBody,
  type ErasureResult,
  type LeadDetail,
  type SubjectLead,
} from '@agency/shared';
import { Link } from '@agency/shared/router';
import { messageOf, staffDownload, staffSend } from '../../shared/api/staff-api';
import styles from '../../shared/ui/console.module.css';
import { ErrorAlert } from '../../shared/ui/ErrorAlert';
import { LeadFields } from '../../shared/ui/LeadFields';
import { kyivDateTime } from '../../shared/ui/kyiv-time';
import { useDocumentTitle } from '../../shared/ui/use-document-title';

/** One lead of the person, with a form to correct their name, e-mail or phone in it. */
function SubjectLeadCard({ lead, onCorrected }: { lead: SubjectLead; onCorrected: (lead: LeadDetail) => void }) {
  const [field, setField] = useState<CorrectableField>('name');
  const [value, setValue] = useState('');
  const [error, setError] = useState('');

  async function correct(event: FormEvent) {
    event.preventDefault();
    setError('');
    try {
      onCorrected(await staffSend<LeadDetail>('patch', `/leads/${lead.id}/fields`, { version: lead.version, field, value }));
      setValue('');
    } catch (failure) {
      setError(messageOf(failure));
    }
  }

  return (
    <li className={styles.panel} data-testid="subject-lead">
      <h3>
        <Link to={`${STAFF_PATHS.home}/leads/${lead.id}`}>
          {LEAD_KIND_LABELS[lead.kind]} №{lead.id}
        </Link>{' '}
        <span className={styles.muted}>
          {kyivDateTime(lead.receivedAt)}, {LEAD_STATUS_LABELS[lead.status]}
        </span>
      </h3>
      <LeadFields fields={lead.fields} />
      <p className={styles.muted}>
        Нотаток: {lead.notes.length}; змін в історії: {lead.history.length}; копій у сповіщеннях: {lead.notifications.filter((copy) => copy.payload !== null).length}
      </p>
      <form className={styles.row} onSubmit={correct} aria-label={`Виправити дані у №${lead.id}`}>
        <label className={styles.field}>
          Поле
          <select value={field} onChange={(event) => setField(event.target.value as CorrectableField)}>
            {CORRECTABLE_FIELDS.map((each) => (
              <option key={each} value={each}>
                {LEAD_FIELD_LABELS[each]}
              </option>
            ))}
          </select>
        </label>
        <label className={styles.field}>
          Правильне значення
          <input required value={value} onChange={(event) => setValue(event.target.value)} />
        </label>
        <button type="submit" className={styles.button}>
          Виправити
        </button>
      </form>
      <ErrorAlert error={error} />
    </li>
  );
}

/**
 * `/staff/data-requests` (admins): a person asks what the agency holds about them, to correct
 * it or to erase it. Found by their e-mail or phone; exported as one JSON file; each lead's name,
 * e-mail or phone corrected; everything erased after the address is typed again. The address or
 * phone goes in request bodies only, never in a URL (see the contract).
 */
export function DataRequestsPage() {
  useDocumentTitle('Запити щодо даних');
  const [subject, setSubject] = useState('');
  const [report, setReport] = useState<DataSubjectReport | undefined>(undefined);
  const [asked, setAsked] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [erased, setErased] = useState<ErasureResult | undefined>(undefined);
  const [error, setError] = useState('');

  async function find(text: string) {
    setError('');
    try {
      setReport(await staffSend<DataSubjectReport>('post', '/data-requests/lookup', { subject: text } satisfies DataSubjectBody));
      setAsked(text);
    } catch (failure) {
      setReport(undefined);
      setError(messageOf(failure));
    }
  }

  async function erase(event: FormEvent) {
    event.preventDefault();
    setError('');
    try {
      setErased(await staffSend<ErasureResult>('post', '/data-requests/erase', { subject: asked, confirmation } satisfies ErasureBody));
      setConfirmation('');
      await find(asked);
    } catch (failure) {
      setError(messageOf(failure));
    }
  }

  async function download() {
    setError('');
    try {
      await staffDownload('/data-requests/export', { subject: asked } satisfies DataSubjectBody);
    } catch (failure) {
      setError(messageOf(failure));
    }
  }

  const replaceLead = (corrected: LeadDetail) =>
    setReport((current) => current && { ...current, leads: current.leads.map((lead) => (lead.id === corrected.id ? { ...lead, ...corrected } : lead)) });

  return (
    <div className={styles.stack}>
      <h1>Запити щодо даних</h1>
      <p className={styles.muted}>Людина має право дізнатися, що агенція про неї зберігає, виправити це або видалити. Відповісти треба протягом {countOf(DATA_REQUEST_ANSWER_DAYS, DAYS)}.</p>
      <form
        className={`${styles.panel} ${styles.row}`}
        onSubmit={(event) => {
          event.preventDefault();
          setErased(undefined);
          void find(subject);
        }}
      >
        <label className={styles.field}>
          E-mail або телефон
          <input required value={subject} onChange={(event) => setSubject(event.target.value)} />
        </label>
        <button type="submit" className={styles.button}>
          Знайти
        </button>
      </form>
      <ErrorAlert error={error} />
      {erased && (
        <p role="status" className={styles.notice}>
          Дані видалено: звернень і заявок — {erased.leads}, записів у базі — {Object.values(erased.rows).reduce((sum, rows) => sum + rows, 0)}.
        </p>
      )}
      {report && (
        <section className={styles.stack} aria-labelledby="subject-data">
          <h2 id="subject-data">
            {report.matchedBy === 'email' ? 'Адреса' : 'Телефон'} {report.subject}: звернень і заявок — {report.leads.length}
          </h2>
          {report.erasures.length > 0 && (
            <ul aria-label="Раніше видалено">
              {report.erasures.map((erasure) => (
                <li key={erasure.at}>
                  Дані цієї особи видалено {kyivDateTime(erasure.at)} ({erasure.actor}): звернень і заявок — {erasure.leads}.
                </li>
              ))}
            </ul>
          )}
          {report.leads.length > 0 && (
            <>
              <p>
                <button type="button" className={styles.secondary} onClick={() => void download()}>
                  Завантажити дані
                </button>
              </p>
              <ul className={styles.stack}>
                {report.leads.map((lead) => (
                  <SubjectLeadCard key={lead.id} lead={lead} onCorrected={replaceLead} />
                ))}
              </ul>
              <form className={`${styles.panel} ${styles.stack}`} onSubmit={erase} aria-labelledby="erase-title">
                <h2 id="erase-title">Видалити дані</h2>
                <p>
                  Буде видалено все, що сайт зберігає про цю особу: звернення й заявки, нотатки, історію змін, копії у сповіщеннях. Це не можна скасувати. CRM
                  отримає повідомлення про видалення; листи й повідомлення в Telegram, які вже надійшли працівникам, треба видалити вручну.
                </p>
                <label className={styles.field}>
                  Щоб підтвердити, введіть ту саму адресу чи номер ще раз
                  <input required autoComplete="off" value={confirmation} onChange={(event) => setConfirmation(event.target.value)} />
                </label>
                <button type="submit" className={styles.button}>
                  Видалити дані
                </button>
              </form>
            </>
          )}
        </section>
      )}
    </div>
  );
}
