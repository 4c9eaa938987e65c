import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DataSubjectReport, LeadDetail, SubjectLead } from '@agency/shared';
import { MemoryRouter } from '@agency/shared/router';
import { staffDownload, staffSend } from '../../shared/api/staff-api';
import { apiAnswered } from '../../shared/api/__mocks__/staff-api';
import { DataRequestsPage } from './DataRequestsPage';

jest.mock('../../shared/api/staff-api');
const send = jest.mocked(staffSend);
const download = jest.mocked(staffDownload);
/** The lookups the page made: each is a POST whose body names the person. */
const lookups = () => send.mock.calls.filter(([, path]) => path === '/data-requests/lookup');
/** Answers lookups with `reports` in turn and any other call with `other`. */
function answer(reports: unknown[], other?: unknown) {
  send.mockImplementation(async (_method, path) => (path === '/data-requests/lookup' ? (reports.length > 1 ? reports.shift() : reports[0]) : other) as never);
}

const LEAD: SubjectLead = {
  id: 12,
  kind: 'contact',
  receivedAt: '2026-11-20T10:00:00.000Z',
  name: 'Олена Коваль',
  email: 'olena@example.com',
  subject: 'SMM та просування',
  source: '',
  status: 'in_progress',
  assignee: null,
  version: 3,
  spamReasons: [],
  personLeads: 1,
  firstResponseAt: '2026-11-20T11:00:00.000Z',
  waitedMinutes: 60,
  overdue: false,
  fields: [
    { name: 'name', value: 'Олена Коваль' },
    { name: 'email', value: 'olena@example.com' },
    { name: 'phone', value: '+380 67 765 43 21' },
  ],
  attribution: {},
  deliveries: [],
  notes: [{ id: 1, author: 'admin@khvylia.example', text: 'Передзвонити', createdAt: '2026-11-21T10:00:00.000Z' }],
  history: [],
  personOthers: [],
  linked: false,
  notifications: [{ channel: 'webhook', status: 'delivered', createdAt: '2026-11-20T10:00:00.000Z', deliveredAt: '2026-11-20T10:00:01.000Z', payload: {}, payloadRemovedAt: null }],
};

const REPORT: DataSubjectReport = { format: 'agency-data-subject/1', generatedAt: '2026-11-26T10:00:00.000Z', subject: 'olena@example.com', matchedBy: 'email', leads: [LEAD], erasures: [] };

const refusal = (status: number, message: string) => apiAnswered(status, { error: { code: 'VALIDATION_ERROR', message } });

async function findPerson(subject: string) {
  render(
    <MemoryRouter initialEntries={['/staff/data-requests']}>
      <DataRequestsPage />
    </MemoryRouter>,
  );
  await userEvent.type(screen.getByLabelText('E-mail або телефон'), subject);
  await userEvent.click(screen.getByRole('button', { name: 'Знайти' }));
}

beforeEach(() => {
  send.mockReset();
  download.mockReset();
});

describe('DataRequestsPage', () => {
  it('shows each lead held about the person as text, with a download of all of it, naming them in request bodies only', async () => {
    answer([REPORT]);
    download.mockResolvedValue(undefined);
    await findPerson('Olena@Example.com');
    expect(send).toHaveBeenCalledWith('post', '/data-requests/lookup', { subject: 'Olena@Example.com' });
    const card = await screen.findByTestId('subject-lead');
    expect(within(card).getByText('+380 67 765 43 21')).toBeInTheDocument();
    expect(card).toHaveTextContent('Нотаток: 1; змін в історії: 0; копій у сповіщеннях: 1');
    // A button, not a link: a link's URL would carry the address into logs and the history.
    expect(screen.queryByRole('link', { name: 'Завантажити дані' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Завантажити дані' }));
    expect(download).toHaveBeenCalledWith('/data-requests/export', { subject: 'Olena@Example.com' });
  });

  it('says why a download failed', async () => {
    answer([REPORT]);
    download.mockRejectedValue(refusal(403, 'Ваша роль не дозволяє цю дію'));
    await findPerson('olena@example.com');
    await userEvent.click(await screen.findByRole('button', { name: 'Завантажити дані' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Ваша роль не дозволяє цю дію');
  });

  it('says what was wrong with a subject that names nobody', async () => {
    send.mockRejectedValue(refusal(400, 'Вкажіть адресу електронної пошти або номер телефону (щонайменше 9 цифр)'));
    await findPerson('olena');
    expect(await screen.findByRole('alert')).toHaveTextContent('щонайменше 9 цифр');
    expect(screen.queryByTestId('subject-lead')).not.toBeInTheDocument();
  });

  it('corrects a field from the lead’s version and shows the corrected lead', async () => {
    const corrected: LeadDetail = { ...LEAD, version: 4, fields: LEAD.fields.map((field) => (field.name === 'phone' ? { ...field, value: '0501112233' } : field)) };
    answer([REPORT], corrected);
    await findPerson('olena@example.com');
    const card = await screen.findByTestId('subject-lead');
    await userEvent.selectOptions(within(card).getByLabelText('Поле'), 'phone');
    await userEvent.type(within(card).getByLabelText('Правильне значення'), '0501112233');
    await userEvent.click(within(card).getByRole('button', { name: 'Виправити' }));
    expect(send).toHaveBeenCalledWith('patch', '/leads/12/fields', { version: 3, field: 'phone', value: '0501112233' });
    expect(await within(card).findByText('0501112233')).toBeInTheDocument();
  });

  it('erases only with the address typed again, then shows that it happened', async () => {
    answer([REPORT, { ...REPORT, leads: [], erasures: [{ at: '2026-11-26T10:05:00.000Z', actor: 'admin@khvylia.example', leads: 1 }] }], { leads: 1, rows: { leads: 1, contact_messages: 1, lead_notes: 1 } });
    await findPerson('olena@example.com');
    await screen.findByTestId('subject-lead');
    const erase = screen.getByRole('button', { name: 'Видалити дані' });
    // The confirmation is required: the browser keeps the form from being sent without it.
    expect(screen.getByLabelText('Щоб підтвердити, введіть ту саму адресу чи номер ще раз')).toBeRequired();
    await userEvent.type(screen.getByLabelText('Щоб підтвердити, введіть ту саму адресу чи номер ще раз'), 'olena@example.com');
    await userEvent.click(erase);
    expect(send).toHaveBeenCalledWith('post', '/data-requests/erase', { subject: 'olena@example.com', confirmation: 'olena@example.com' });
    expect(await screen.findByRole('status')).toHaveTextContent('Дані видалено: звернень і заявок — 1, записів у базі — 3.');
    expect(await screen.findByText(/Дані цієї особи видалено .*admin@khvylia\.example.*звернень і заявок — 1/)).toBeInTheDocument();
    expect(lookups()).toHaveLength(2);
    expect(screen.queryByTestId('subject-lead')).not.toBeInTheDocument();
  });
});
