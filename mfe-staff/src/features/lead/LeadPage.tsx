import { useEffect, useState, type FormEvent } from 'react';
import {
  LEAD_FIELD_LABELS,
  LEAD_KIND_LABELS,
  LEAD_STATUS_LABELS,
  LEAD_STATUSES,
  ALERT_CHANNEL,
  REPLY_CHANNEL,
  SPAM_REASON_LABELS,
  formatWorkingMinutes,
  type LeadConflict,
  type LeadDetail,
  type LeadNote,
  type LeadStatus,
  type LeadSummary,
  type MemberList,
} from '@agency/shared';
import { Link, useParams } from '@agency/shared/router';
import type { AxiosError } from 'axios';
import { messageOf, staffGet, staffSend, statusOf, unlinkLead } from '../../shared/api/staff-api';
import { useStaffSession } from '../../shared/session/staff-session';
import styles from '../../shared/ui/console.module.css';
import { ErrorAlert } from '../../shared/ui/ErrorAlert';
import { LeadFields } from '../../shared/ui/LeadFields';
import { kyivDateTime } from '../../shared/ui/kyiv-time';
import { useDocumentTitle } from '../../shared/ui/use-document-title';
import { PersonOthers } from './PersonOthers';
import { useLeadAction } from './use-lead-action';

const CHANGE_LABELS: Record<string, string> = { status: 'Статус', assignee: 'Відповідальний', note: 'Нотатка', person: 'Відʼєднано від людини' };
/** Changes whose values say nothing to people: a note's text is in the notes, a person's id is internal. */
const VALUELESS_CHANGES = new Set(['note', 'person']);
/** A delivery's channel as staff read it; the notification channels keep their own names. */
const CHANNEL_LABELS: Record<string, string> = { [REPLY_CHANNEL]: 'Відповідь відвідувачу', [ALERT_CHANNEL]: 'Нагадування про прострочення' };
/** A history entry's name: a correction of a field (`field:email`) names the field. */
const changeLabel = (change: string) => (change.startsWith('field:') ? `Виправлено: ${LEAD_FIELD_LABELS[change.slice('field:'.length)] ?? change}` : (CHANGE_LABELS[change] ?? change));
const valueText = (change: string, value: string | null) => (value === null ? '—' : change === 'status' ? (LEAD_STATUS_LABELS[value as LeadStatus] ?? value) : value);

/** The body of a 409: the lead as it is now (undefined for any other failure). */
const conflictOf = (failure: unknown) => (statusOf(failure) === 409 ? (failure as AxiosError<LeadConflict>).response?.data : undefined);

/** Why an edit failed; after a refused edit (409), also what the lead's work is now. */
function EditError({ error, conflict }: { error: string; conflict: LeadSummary | undefined }) {
  if (!error) return null;
  return (
    <p role="alert" className={styles.error}>
      {error}
      {conflict && ` Зараз: статус «${LEAD_STATUS_LABELS[conflict.status]}», відповідальний ${conflict.assignee?.email ?? '—'}.`}
    </p>
  );
}

/** How long the lead waited for its first response, or has waited so far, in working time. */
function ResponseTime({ lead }: { lead: LeadDetail }) {
  const waited = formatWorkingMinutes(lead.waitedMinutes);
  if (lead.firstResponseAt) return <p>Перша відповідь через {waited} робочого часу</p>;
  return (
    <p>
      Чекає на відповідь {waited} робочого часу
      {lead.overdue && (
        <>
          {' '}
          <strong className={styles.error}>(прострочено)</strong>
        </>
      )}
    </p>
  );
}

/**
 * `/staff/leads/:id`: the lead as the visitor sent it (always text: React never reads it as
 * markup), where the visit came from, each notification's delivery, notes and the history of
 * every change. Editors change its status and assignee and add notes; a save made from an older
 * version is refused by the server, and the page then shows what changed meanwhile. A lead the
 * spam defence held says why; editors let a lead marked spam through with «Не спам». It says how
 * long the lead waited for its first response and lists the person's other leads; editors unlink
 * a lead joined to a person by mistake.
 */
export function LeadPage() {
  const { id } = useParams();
  const { may } = useStaffSession();
  const [lead, setLead] = useState<LeadDetail | undefined>(undefined);
  const [members, setMembers] = useState<MemberList>([]);
  const [error, setError] = useState('');
  const [conflict, setConflict] = useState<LeadSummary | undefined>(undefined);
  const [status, setStatus] = useState<LeadStatus>('new');
  const [assignee, setAssignee] = useState('');
  const [note, setNote] = useState('');
  const release = useLeadAction(showFailure);
  const unlinking = useLeadAction(showFailure);
  useDocumentTitle(lead ? `Заявка: ${lead.name}` : 'Заявка');

  const load = () =>
    staffGet<LeadDetail>(`/leads/${id}`).then(
      (loaded) => {
        setLead(loaded);
        setStatus(loaded.status);
        setAssignee(loaded.assignee ? String(loaded.assignee.id) : '');
      },
      (failure: unknown) => setError(messageOf(failure)),
    );

  useEffect(() => {
    release.reset();
    unlinking.reset();
    void load();
    staffGet<MemberList>('/members').then(setMembers, () => undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- loads again only for another lead
  }, [id]);

  /** A change refused: a version conflict shows the lead as it is now (reloaded); anything else, its message. */
  async function showFailure(failure: unknown, showConflict: (current: LeadSummary) => void, showError: (message: string) => void) {
    const body = conflictOf(failure);
    if (!body) return showError(messageOf(failure));
    showConflict(body.current);
    showError(body.error.message);
    await load();
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!lead) return;
    setError('');
    setConflict(undefined);
    try {
      await staffSend<LeadSummary>('patch', `/leads/${lead.id}`, { version: lead.version, status, assigneeId: assignee ? Number(assignee) : null });
      await load();
    } catch (failure) {
      await showFailure(failure, setConflict, setError);
    }
  }

  /** «Не спам»: back to «Нова», its notifications sent if they never were, its sender trusted. */
  async function notSpam(of: LeadDetail) {
    await release.run(async () => {
      const now = await staffSend<LeadSummary>('post', `/leads/${of.id}/not-spam`, { version: of.version });
      setLead({ ...of, ...now });
      setStatus(now.status);
      // The history and the deliveries changed too: reloaded.
    }, load);
  }

  /** «Відʼєднати від цієї людини»: the lead stands alone from then on (its others, history and version change: reloaded). */
  const unlink = (of: LeadDetail) => unlinking.run(() => unlinkLead(of.id, of.version).then(() => undefined), load);

  async function addNote(event: FormEvent) {
    event.preventDefault();
    if (!lead) return;
    try {
      const added = await staffSend<LeadNote>('post', `/leads/${lead.id}/notes`, { text: note });
      setLead({ ...lead, notes: [...lead.notes, added] });
      setNote('');
      await load();
    } catch (failure) {
      setError(messageOf(failure));
    }
  }

  if (!lead) {
    return error ? <ErrorAlert error={error} /> : <p>Завантаження…</p>;
  }
  const held = lead.spamReasons.length > 0;
  const isSpam = lead.status === 'spam';

  return (
    <div className={styles.stack}>
      <p>
        <Link to="/staff">← До заявок</Link>
      </p>
      <h1>
        {LEAD_KIND_LABELS[lead.kind]} від {lead.name}
      </h1>
      <p className={styles.muted}>Отримано {kyivDateTime(lead.receivedAt)}</p>
      <ResponseTime lead={lead} />

      {(held || isSpam || release.done || release.error) && (
        <section className={styles.panel} aria-labelledby="lead-spam">
          <h2 id="lead-spam">{held ? 'Чому затримано' : 'Спам'}</h2>
          {held ? (
            <>
              <p>Захист від спаму затримав заявку, щойно вона надійшла:</p>
              <ul>
                {lead.spamReasons.map((reason) => (
                  <li key={reason}>{SPAM_REASON_LABELS[reason] ?? reason}</li>
                ))}
              </ul>
            </>
          ) : (
            isSpam && <p>Заявку позначено як спам вручну.</p>
          )}
          {isSpam && may('editor') && (
            <div className={styles.row}>
              <button type="button" className={styles.button} disabled={release.busy} aria-describedby="lead-not-spam-hint" onClick={() => void notSpam(lead)}>
                Не спам
              </button>
              <p id="lead-not-spam-hint" className={styles.muted}>
                Заявка повернеться у вхідні зі статусом «{LEAD_STATUS_LABELS.new}», а заявок з цього e-mail чи телефону захист надалі не затримуватиме.
              </p>
            </div>
          )}
          {release.done && (
            <p role="status" className={styles.notice}>
              Заявку повернуто у вхідні. Сповіщення надійдуть, якщо їх ще не надсилали.
            </p>
          )}
          <EditError error={release.error} conflict={release.conflict} />
        </section>
      )}

      <section className={styles.panel} aria-labelledby="lead-fields">
        <h2 id="lead-fields">Що надіслано</h2>
        <LeadFields fields={lead.fields} testId="lead-fields" />
      </section>

      <section className={styles.panel} aria-labelledby="lead-work">
        <h2 id="lead-work">Робота із заявкою</h2>
        {may('editor') ? (
          <form className={styles.row} onSubmit={save}>
            <label className={styles.field}>
              Статус
              <select value={status} onChange={(event) => setStatus(event.target.value as LeadStatus)}>
                {LEAD_STATUSES.map((each) => (
                  <option key={each} value={each}>
                    {LEAD_STATUS_LABELS[each]}
                  </option>
                ))}
              </select>
            </label>
            <label className={styles.field}>
              Відповідальний
              <select value={assignee} onChange={(event) => setAssignee(event.target.value)}>
                <option value="">Нікого</option>
                {/* A release manager takes no leads (the API refuses them); one who already has this lead stays shown. */}
                {members.filter((member) => member.role !== 'release_manager' || String(member.id) === assignee).map((member) => (
                  <option key={member.id} value={String(member.id)}>
                    {member.email}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className={styles.button}>
              Зберегти
            </button>
          </form>
        ) : (
          <p>
            Статус: {LEAD_STATUS_LABELS[lead.status]}; відповідальний: {lead.assignee?.email ?? 'нікого'}
          </p>
        )}
        <EditError error={error} conflict={conflict} />
      </section>

      {(lead.personOthers.length > 0 || lead.linked || unlinking.done || unlinking.error) && (
        <PersonOthers others={lead.personOthers} canUnlink={lead.linked && may('editor')} unlinking={unlinking.busy} onUnlink={() => void unlink(lead)}>
          {unlinking.done && (
            <p role="status" className={styles.notice}>
              Заявку відʼєднано: вона стоїть у вхідних окремо.
            </p>
          )}
          <EditError error={unlinking.error} conflict={unlinking.conflict} />
        </PersonOthers>
      )}

      <section className={styles.panel} aria-labelledby="lead-notes">
        <h2 id="lead-notes">Нотатки</h2>
        {lead.notes.length === 0 && <p className={styles.muted}>Нотаток ще немає.</p>}
        <ul>
          {lead.notes.map((each) => (
            <li key={each.id}>
              <p className={styles.muted}>
                {each.author}, {kyivDateTime(each.createdAt)}
              </p>
              <p className={styles.text}>{each.text}</p>
            </li>
          ))}
        </ul>
        {may('editor') && (
          <form className={styles.stack} onSubmit={addNote}>
            <label className={styles.field}>
              Нова нотатка
              <textarea required rows={3} value={note} onChange={(event) => setNote(event.target.value)} />
            </label>
            <button type="submit" className={styles.button}>
              Додати нотатку
            </button>
          </form>
        )}
      </section>

      <section className={styles.panel} aria-labelledby="lead-source">
        <h2 id="lead-source">Звідки прийшла</h2>
        <dl className={styles.facts}>
          {Object.entries(lead.attribution)
            .filter(([, value]) => value !== null && value !== '')
            .map(([key, value]) => (
              <div key={key} style={{ display: 'contents' }}>
                <dt>{key}</dt>
                <dd className={styles.text}>{value}</dd>
              </div>
            ))}
        </dl>
      </section>

      <section className={styles.panel} aria-labelledby="lead-deliveries">
        <h2 id="lead-deliveries">Сповіщення</h2>
        {lead.deliveries.length === 0 ? (
          <p className={styles.muted}>Каналів сповіщень не налаштовано.</p>
        ) : (
          <div className={styles.tableWrap}>
            <table className={styles.table}>
              <thead>
                <tr>
                  <th scope="col">Канал</th>
                  <th scope="col">Стан</th>
                  <th scope="col">Спроб</th>
                  <th scope="col">Остання помилка</th>
                  <th scope="col">Доставлено</th>
                </tr>
              </thead>
              <tbody>
                {lead.deliveries.map((delivery) => (
                  <tr key={delivery.channel}>
                    <td>{CHANNEL_LABELS[delivery.channel] ?? delivery.channel}</td>
                    <td>{delivery.status}</td>
                    <td>{delivery.attempts}</td>
                    <td className={styles.text}>{delivery.lastError ?? '—'}</td>
                    <td>{delivery.deliveredAt ? kyivDateTime(delivery.deliveredAt) : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section className={styles.panel} aria-labelledby="lead-history">
        <h2 id="lead-history">Історія</h2>
        {lead.history.length === 0 && <p className={styles.muted}>Змін ще не було.</p>}
        <ul>
          {lead.history.map((change, index) => (
            <li key={index}>
              {kyivDateTime(change.at)}, {change.actor}: {changeLabel(change.change)}
              {!VALUELESS_CHANGES.has(change.change) && ` ${valueText(change.change, change.oldValue)} → ${valueText(change.change, change.newValue)}`}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
