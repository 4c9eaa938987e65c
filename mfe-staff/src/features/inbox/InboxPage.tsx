import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import {
  LEAD_KIND_LABELS,
  LEAD_KINDS,
  LEAD_STATUS_LABELS,
  LEAD_STATUSES,
  SPAM_REASON_LABELS,
  STAFF_API_PREFIX,
  STAFF_PATHS,
  countOf,
  type LeadFilter,
  type LeadPage,
  type LeadSummary,
  type MemberList,
  type UkrainianForms,
} from '@agency/shared';
import { Link, useLocation, useNavigate } from '@agency/shared/router';
import { messageOf, staffGet, staffSend } from '../../shared/api/staff-api';
import { useStaffSession } from '../../shared/session/staff-session';
import styles from '../../shared/ui/console.module.css';
import { ErrorAlert } from '../../shared/ui/ErrorAlert';
import { kyivDateTime } from '../../shared/ui/kyiv-time';
import { useDocumentTitle } from '../../shared/ui/use-document-title';
import { filterFromSearch, searchFromFilter } from './inbox-filter';
import { useNewLeads } from './use-new-leads';

/** The list's column headings; on a phone's screen each cell is labelled with its column's. */
const COLUMN = {
  pick: 'Вибір',
  receivedAt: 'Отримано',
  kind: 'Тип',
  name: 'Імʼя',
  email: 'E-mail',
  subject: 'Послуга чи вакансія',
  source: 'Джерело',
  status: 'Статус',
  assignee: 'Відповідальний',
} as const;
const DATA_COLUMNS = ['receivedAt', 'kind', 'name', 'email', 'subject', 'source', 'status', 'assignee'] as const;

/** The inbox showing only the leads marked spam: held by the defence or by hand. */
const SPAM_LIST = `${STAFF_PATHS.home}${searchFromFilter({ status: 'spam' })}`;

const heldThisWeekText = (count: number) => `За тиждень затримано як спам: ${count}`;

/** Why a held lead was held, in a list's cell: its first reason, and how many more there are. */
function heldText(lead: LeadSummary): string {
  const [first, ...rest] = lead.spamReasons;
  if (lead.status !== 'spam' || !first) return '';
  return `Затримано: ${SPAM_REASON_LABELS[first]}${rest.length > 0 ? ` (і ще ${rest.length})` : ''}`;
}

/** «2 звернення», «5 звернень»: how many leads a person sent. */
const LEADS_SENT: UkrainianForms = { one: 'звернення', few: 'звернення', many: 'звернень' };

/** A lead someone should take: still waiting for work, nobody's. */
const unassigned = (lead: LeadSummary) => lead.assignee === null && (lead.status === 'new' || lead.status === 'in_progress');

/**
 * `/staff`: every lead, newest first, under the filters in the address; more on request (keyset
 * pages). Leads arriving meanwhile appear at the top within seconds, counted in the tab's title
 * until «Переглянуто». Editors select leads to mark as spam and export the list as CSV. Above
 * the list: how many leads the spam defence held this week, linking to the spam list. Each person
 * is one row, their newest lead, saying how many leads they sent; a lead waiting past the response
 * target says «Прострочено», one nobody took «Без відповідального».
 */
export function InboxPage() {
  const { may } = useStaffSession();
  const location = useLocation();
  const navigate = useNavigate();
  const filter = useMemo(() => filterFromSearch(location.search), [location.search]);
  const [leads, setLeads] = useState<LeadSummary[]>([]);
  const [next, setNext] = useState<number | null>(null);
  const [heldThisWeek, setHeldThisWeek] = useState<number | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState('');
  const [fresh, setFresh] = useState<Set<number>>(new Set());
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [members, setMembers] = useState<MemberList>([]);
  const [draft, setDraft] = useState<LeadFilter>(filter);
  useDocumentTitle(fresh.size > 0 ? `(${fresh.size}) Заявки` : 'Заявки');

  useEffect(() => {
    setDraft(filter);
    setLoading(true);
    setError('');
    setFresh(new Set());
    setSelected(new Set());
    staffGet<LeadPage>('/leads', filter).then(
      (page) => {
        setLeads(page.leads);
        setNext(page.next);
        setHeldThisWeek(page.heldThisWeek);
        setLoading(false);
      },
      (failure: unknown) => {
        setError(messageOf(failure));
        setLoading(false);
      },
    );
  }, [filter]);

  useEffect(() => {
    staffGet<MemberList>('/members').then(setMembers, () => undefined);
  }, []);

  const arrived = useCallback((newer: LeadSummary[]) => {
    setLeads((shown) => [...newer.filter((lead) => !shown.some((each) => each.id === lead.id)), ...shown]);
    setFresh((marked) => new Set([...marked, ...newer.map((lead) => lead.id)]));
  }, []);
  useNewLeads(filter, loading ? undefined : (leads[0]?.id ?? 0), arrived);

  async function more() {
    if (next === null) return;
    try {
      const page = await staffGet<LeadPage>('/leads', { ...filter, before: String(next) });
      setLeads((shown) => [...shown, ...page.leads]);
      setNext(page.next);
    } catch (failure) {
      setError(messageOf(failure));
    }
  }

  async function markSpam() {
    try {
      await staffSend('post', '/leads/spam', { ids: [...selected] });
      setLeads((shown) => (filter.status === 'spam' ? shown : shown.filter((lead) => !selected.has(lead.id))));
      setSelected(new Set());
    } catch (failure) {
      setError(messageOf(failure));
    }
  }

  const apply = (event: FormEvent) => {
    event.preventDefault();
    navigate({ search: searchFromFilter(draft) });
  };
  const set = (key: keyof LeadFilter) => (event: { target: { value: string } }) => setDraft({ ...draft, [key]: event.target.value || undefined });
  const toggle = (id: number) => setSelected((current) => new Set(current.has(id) ? [...current].filter((each) => each !== id) : [...current, id]));

  return (
    <div className={styles.stack}>
      <h1>Заявки</h1>
      <form className={`${styles.panel} ${styles.row}`} onSubmit={apply} aria-label="Фільтри">
        <label className={styles.field}>
          Пошук
          <input type="search" value={draft.q ?? ''} onChange={set('q')} placeholder="Імʼя, e-mail, телефон, текст" />
        </label>
        <label className={styles.field}>
          Статус
          <select value={draft.status ?? ''} onChange={set('status')}>
            <option value="">Усі, крім спаму</option>
            {LEAD_STATUSES.map((status) => (
              <option key={status} value={status}>
                {LEAD_STATUS_LABELS[status]}
              </option>
            ))}
          </select>
        </label>
        <label className={styles.field}>
          Тип
          <select value={draft.kind ?? ''} onChange={set('kind')}>
            <option value="">Усі</option>
            {LEAD_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {LEAD_KIND_LABELS[kind]}
              </option>
            ))}
          </select>
        </label>
        <label className={styles.field}>
          Джерело
          <input value={draft.source ?? ''} onChange={set('source')} placeholder="google" />
        </label>
        <label className={styles.field}>
          Відповідальний
          <select value={draft.assignee ?? ''} onChange={set('assignee')}>
            <option value="">Будь-хто</option>
            <option value="none">Нікого</option>
            {members.map((member) => (
              <option key={member.id} value={String(member.id)}>
                {member.email}
              </option>
            ))}
          </select>
        </label>
        <label className={styles.field}>
          З дня
          <input type="date" value={draft.from ?? ''} onChange={set('from')} />
        </label>
        <label className={styles.field}>
          До дня
          <input type="date" value={draft.to ?? ''} onChange={set('to')} />
        </label>
        <button type="submit" className={styles.button}>
          Показати
        </button>
      </form>

      <div className={styles.row}>
        {heldThisWeek !== undefined && (
          <p>
            {heldThisWeek > 0 ? <Link to={SPAM_LIST}>{heldThisWeekText(heldThisWeek)}</Link> : heldThisWeekText(0)}
          </p>
        )}
        {fresh.size > 0 && (
          <p className={styles.notice} role="status">
            Нових заявок: {fresh.size}{' '}
            <button type="button" className={styles.link} onClick={() => setFresh(new Set())}>
              Переглянуто
            </button>
          </p>
        )}
        {may('editor') && (
          <>
            <a className={styles.secondary} href={`${STAFF_API_PREFIX}/leads/export${searchFromFilter(filter)}`} download>
              Експорт CSV
            </a>
            <button type="button" className={styles.secondary} disabled={selected.size === 0} onClick={markSpam}>
              Позначити як спам ({selected.size})
            </button>
          </>
        )}
      </div>

      <ErrorAlert error={error} />
      {!loading && leads.length === 0 && !error && <p>Заявок за цими умовами немає.</p>}
      {leads.length > 0 && (
        <div className={styles.tableWrap}>
          <table className={`${styles.table} ${styles.stacked}`}>
            <thead>
              <tr>
                {may('editor') && <th scope="col">{COLUMN.pick}</th>}
                {DATA_COLUMNS.map((column) => (
                  <th key={column} scope="col">
                    {COLUMN[column]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {leads.map((lead) => (
                <tr key={lead.id} className={fresh.has(lead.id) ? styles.fresh : undefined} data-lead-id={lead.id}>
                  {may('editor') && (
                    <td data-label={COLUMN.pick}>
                      <input type="checkbox" aria-label={`Вибрати заявку ${lead.name}`} checked={selected.has(lead.id)} onChange={() => toggle(lead.id)} />
                    </td>
                  )}
                  <td data-label={COLUMN.receivedAt}>{kyivDateTime(lead.receivedAt)}</td>
                  <td data-label={COLUMN.kind}>{LEAD_KIND_LABELS[lead.kind]}</td>
                  <td data-label={COLUMN.name}>
                    <div>
                      <Link to={`leads/${lead.id}`}>{lead.name || '—'}</Link>
                      {lead.personLeads > 1 && (
                        <>
                          {' '}
                          <span className={styles.badge}>{countOf(lead.personLeads, LEADS_SENT)}</span>
                        </>
                      )}
                    </div>
                  </td>
                  <td data-label={COLUMN.email}>{lead.email}</td>
                  <td data-label={COLUMN.subject}>{lead.subject || '—'}</td>
                  <td data-label={COLUMN.source}>{lead.source || '—'}</td>
                  <td data-label={COLUMN.status}>
                    {/* One box, so a phone's card keeps the reason beside the status, under the column's name. */}
                    <div>
                      {LEAD_STATUS_LABELS[lead.status]}
                      {lead.overdue && (
                        <>
                          {' '}
                          <span className={styles.warning}>Прострочено</span>
                        </>
                      )}
                      {heldText(lead) && <div className={styles.muted}>{heldText(lead)}</div>}
                    </div>
                  </td>
                  <td data-label={COLUMN.assignee}>{lead.assignee?.email ?? (unassigned(lead) ? <span className={styles.badge}>Без відповідального</span> : '—')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {next !== null && (
        <button type="button" className={styles.secondary} onClick={more}>
          Показати ще
        </button>
      )}
    </div>
  );
}
