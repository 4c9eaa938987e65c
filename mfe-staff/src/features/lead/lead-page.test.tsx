import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LeadDetail, LeadSummary, StaffSession } from '@agency/shared';
import { MemoryRouter, Route, Routes } from '@agency/shared/router';
import { staffGet, staffSend, unlinkLead } from '../../shared/api/staff-api';
import { apiAnswered } from '../../shared/api/__mocks__/staff-api';
import { StaffSessionProvider } from '../../shared/session/staff-session';
import { LeadPage } from './LeadPage';

jest.mock('../../shared/api/staff-api');
const get = jest.mocked(staffGet);
const send = jest.mocked(staffSend);
const unlink = jest.mocked(unlinkLead);

const EDITOR: StaffSession = { member: { id: 1, email: 'editor@khvylia.example', role: 'editor', releaseApps: [] }, csrfToken: 't', passkeys: 1, totp: false, recoveryCodesLeft: 10 };
const VIEWER: StaffSession = { ...EDITOR, member: { id: 3, email: 'viewer@khvylia.example', role: 'viewer', releaseApps: [] } };

const LEAD: LeadDetail = {
  id: 7,
  kind: 'contact',
  receivedAt: '2026-11-25T10:00:00.000Z',
  name: '<img src=x onerror=alert(1)>',
  email: 'x@example.com',
  subject: 'SMM та просування',
  source: 'google',
  status: 'new',
  assignee: null,
  version: 1,
  spamReasons: [],
  personLeads: 1,
  firstResponseAt: null,
  waitedMinutes: 0,
  overdue: false,
  fields: [
    { name: 'name', value: '<img src=x onerror=alert(1)>' },
    { name: 'message', value: '<b>жирний</b>\nдругий рядок' },
  ],
  attribution: { utm_source: 'google', referrer: null },
  deliveries: [{ channel: 'webhook', status: 'failed', attempts: 3, lastError: 'HTTP 500', deliveredAt: null }],
  notes: [],
  history: [],
  personOthers: [],
  linked: false,
};

/** The lead as a list (and a 409) shows it: without what only its page has. */
const summaryOf = ({ fields: _f, attribution: _a, deliveries: _d, notes: _n, history: _h, personOthers: _p, linked: _l, ...summary }: LeadDetail): LeadSummary => summary;

const conflict = (current: object) =>
  apiAnswered(409, { error: { code: 'LEAD_CHANGED', message: 'Заявку щойно змінив хтось інший. Перегляньте зміни й збережіть ще раз' }, current });

/** The lead the API answers `GET /leads/7` with; a test changes it to what the server holds after an action. */
let stored: LeadDetail = LEAD;

function renderLead(lead: LeadDetail = LEAD, session: StaffSession = EDITOR) {
  stored = lead;
  get.mockImplementation(async (path: string) => (path === '/session' ? session : path === '/members' ? [{ ...EDITOR.member, createdAt: '' }] : stored) as never);
  render(
    <MemoryRouter initialEntries={['/staff/leads/7']}>
      <StaffSessionProvider>
        <Routes>
          <Route path="/staff/leads/:id" element={<LeadPage />} />
        </Routes>
      </StaffSessionProvider>
    </MemoryRouter>,
  );
}

describe('a lead’s page', () => {
  beforeEach(() => jest.clearAllMocks());

  it('shows what the visitor sent as text, never as markup', async () => {
    renderLead();
    expect(await screen.findByText('<b>жирний</b> другий рядок', { normalizer: (text) => text.replace(/\s+/g, ' ') })).toBeInTheDocument();
    expect(screen.getAllByText('<img src=x onerror=alert(1)>').length).toBeGreaterThan(0);
    expect(document.querySelector('img[src="x"]')).toBeNull();
    expect(document.querySelector('b')).toBeNull();
    expect(screen.getByText('HTTP 500')).toBeInTheDocument();
  });

  it('says what changed when someone else saved the lead first, and keeps the page usable', async () => {
    renderLead();
    const user = userEvent.setup({ delay: null });
    await user.selectOptions(await screen.findByLabelText('Статус'), 'won');
    send.mockRejectedValueOnce(conflict({ ...LEAD, status: 'lost', version: 2, assignee: { id: 2, email: 'colleague@khvylia.example', role: 'editor' } }));
    await user.click(screen.getByRole('button', { name: 'Зберегти' }));
    expect(send).toHaveBeenCalledWith('patch', '/leads/7', { version: 1, status: 'won', assigneeId: null });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Заявку щойно змінив хтось інший. Перегляньте зміни й збережіть ще раз Зараз: статус «Втрачена», відповідальний colleague@khvylia.example.',
    );
  });
});

describe('a lead held or marked as spam', () => {
  const HELD: LeadDetail = { ...LEAD, status: 'spam', spamReasons: ['no-token', 'spam-phrase'] };
  const reasonsShown = () => within(screen.getByRole('region', { name: 'Чому затримано' })).getAllByRole('listitem').map((item) => item.textContent);

  beforeEach(() => jest.clearAllMocks());

  it('says why it was held; an editor’s «Не спам» shows it as «Нова» and says what follows', async () => {
    renderLead(HELD);
    const user = userEvent.setup({ delay: null });
    const button = await screen.findByRole('button', { name: 'Не спам' });
    expect(reasonsShown()).toEqual(['Без токена форми', 'Фраза зі списку спаму']);
    expect(button).toHaveAccessibleDescription(/повернеться у вхідні зі статусом «Нова»/);
    const released: LeadDetail = { ...HELD, status: 'new', version: 2, history: [{ at: '2026-11-26T10:00:00.000Z', actor: 'editor@khvylia.example', change: 'status', oldValue: 'spam', newValue: 'new' }] };
    send.mockImplementationOnce(async () => {
      stored = released;
      return summaryOf(released) as never;
    });
    await user.click(button);
    expect(send).toHaveBeenCalledWith('post', '/leads/7/not-spam', { version: 1 });
    expect(await screen.findByRole('status')).toHaveTextContent('Заявку повернуто у вхідні. Сповіщення надійдуть, якщо їх ще не надсилали.');
    expect(screen.getByLabelText('Статус')).toHaveValue('new');
    expect(await screen.findByText(/editor@khvylia\.example: Статус Спам → Нова/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Не спам' })).toBeNull();
    expect(reasonsShown()).toEqual(['Без токена форми', 'Фраза зі списку спаму']);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows a viewer the reasons, not the button', async () => {
    renderLead(HELD, VIEWER);
    expect(await screen.findByRole('region', { name: 'Чому затримано' })).toBeInTheDocument();
    expect(reasonsShown()).toEqual(['Без токена форми', 'Фраза зі списку спаму']);
    expect(screen.getByText('Статус: Спам; відповідальний: нікого')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Не спам' })).toBeNull();
  });

  it('shows the lead as it is now when someone changed it first', async () => {
    renderLead(HELD);
    const user = userEvent.setup({ delay: null });
    const now: LeadDetail = { ...HELD, status: 'in_progress', version: 2, assignee: { id: 2, email: 'colleague@khvylia.example', role: 'editor' } };
    send.mockImplementationOnce(async () => {
      stored = now;
      throw conflict(summaryOf(now));
    });
    await user.click(await screen.findByRole('button', { name: 'Не спам' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Заявку щойно змінив хтось інший. Перегляньте зміни й збережіть ще раз Зараз: статус «В роботі», відповідальний colleague@khvylia.example.',
    );
    expect(screen.getByLabelText('Статус')).toHaveValue('in_progress');
    expect(screen.queryByRole('button', { name: 'Не спам' })).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('offers «Не спам» for a lead marked spam by hand, which has no reasons', async () => {
    renderLead({ ...LEAD, status: 'spam' });
    expect(await screen.findByRole('region', { name: 'Спам' })).toHaveTextContent('Заявку позначено як спам вручну.');
    expect(screen.queryByRole('region', { name: 'Чому затримано' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Не спам' })).toBeInTheDocument();
  });

  it('keeps saying what changed when a lead marked spam by hand was changed first', async () => {
    renderLead({ ...LEAD, status: 'spam' });
    const user = userEvent.setup({ delay: null });
    const now: LeadDetail = { ...LEAD, status: 'won', version: 2 };
    send.mockImplementationOnce(async () => {
      stored = now;
      throw conflict(summaryOf(now));
    });
    await user.click(await screen.findByRole('button', { name: 'Не спам' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Зараз: статус «Успішна», відповідальний —.');
    expect(screen.queryByText('Заявку позначено як спам вручну.')).toBeNull();
  });

  it('says nothing of spam for a lead the defence let through', async () => {
    renderLead();
    expect(await screen.findByRole('region', { name: 'Що надіслано' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Чому затримано' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Не спам' })).toBeNull();
  });
});

describe('a lead’s response time', () => {
  beforeEach(() => jest.clearAllMocks());

  it('says how long the first response took, in working time', async () => {
    renderLead({ ...LEAD, status: 'in_progress', firstResponseAt: '2026-11-25T12:05:00.000Z', waitedMinutes: 125 });
    expect(await screen.findByText('Перша відповідь через 2 год 5 хв робочого часу')).toBeInTheDocument();
    expect(screen.queryByText(/Чекає на відповідь/)).toBeNull();
  });

  it('says how long the lead has waited so far, and when that is past the target', async () => {
    renderLead({ ...LEAD, waitedMinutes: 45 });
    expect(await screen.findByText('Чекає на відповідь 45 хв робочого часу')).toBeInTheDocument();
    expect(screen.queryByText(/прострочено/)).toBeNull();
  });

  it('says «прострочено» in words for a lead waiting past the target', async () => {
    renderLead({ ...LEAD, waitedMinutes: 180, overdue: true });
    const line = await screen.findByText(/^Чекає на відповідь/);
    expect(line).toHaveTextContent(/^Чекає на відповідь 3 год робочого часу \(прострочено\)$/);
  });

  it('names the visitor’s reply among the deliveries', async () => {
    renderLead({ ...LEAD, deliveries: [{ channel: 'reply', status: 'delivered', attempts: 1, lastError: null, deliveredAt: '2026-11-25T10:00:05.000Z' }] });
    const deliveries = await screen.findByRole('region', { name: 'Сповіщення' });
    expect(within(deliveries).getByRole('cell', { name: 'Відповідь відвідувачу' })).toBeInTheDocument();
    expect(within(deliveries).queryByRole('cell', { name: 'reply' })).toBeNull();
  });
});

describe('a lead of a person who wrote before', () => {
  const OTHERS: LeadDetail['personOthers'] = [
    { id: 5, kind: 'applications', receivedAt: '2026-11-20T08:30:00.000Z', status: 'lost', subject: 'Таргетолог' },
    { id: 3, kind: 'contact', receivedAt: '2026-10-01T07:00:00.000Z', status: 'won', subject: '' },
  ];
  const LINKED: LeadDetail = { ...LEAD, personLeads: 3, personOthers: OTHERS, linked: true };
  const region = () => screen.getByRole('region', { name: 'Інші звернення цієї людини' });

  beforeEach(() => {
    jest.clearAllMocks();
    unlink.mockReset();
  });

  it('lists the person’s other leads, newest first, each linking to its page with its day in Kyiv and status', async () => {
    renderLead(LINKED);
    await screen.findByRole('region', { name: 'Інші звернення цієї людини' });
    const items = within(region()).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Відгук на вакансію від 20\.11\.(20)?26, 10:30: «Втрачена», Таргетолог$/),
      expect.stringMatching(/^Звернення від 01\.10\.(20)?26, 10:00: «Успішна»$/),
    ]);
    expect(within(items[0]!).getByRole('link')).toHaveAttribute('href', '/staff/leads/5');
    expect(within(items[1]!).getByRole('link')).toHaveAttribute('href', '/staff/leads/3');
  });

  it('lets an editor unlink the lead from its version, then shows it standing alone', async () => {
    renderLead(LINKED);
    const user = userEvent.setup({ delay: null });
    const button = await screen.findByRole('button', { name: 'Відʼєднати від цієї людини' });
    expect(button).toHaveAccessibleDescription(/стоятиме у вхідних окремо/);
    const alone: LeadDetail = {
      ...LEAD,
      version: 2,
      history: [{ at: '2026-11-26T10:00:00.000Z', actor: 'editor@khvylia.example', change: 'person', oldValue: '41', newValue: null }],
    };
    unlink.mockImplementationOnce(async () => {
      stored = alone;
      return summaryOf(alone);
    });
    await user.click(button);
    expect(unlink).toHaveBeenCalledWith(7, 1);
    expect(await screen.findByRole('status')).toHaveTextContent('Заявку відʼєднано: вона стоїть у вхідних окремо.');
    expect(within(region()).getByText('Інших звернень немає.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Відʼєднати від цієї людини' })).toBeNull();
    // The history names the change, not the person's internal id.
    const history = within(screen.getByRole('region', { name: 'Історія' })).getByRole('listitem');
    expect(history).toHaveTextContent(/^26\.11\.(20)?26, 12:00, editor@khvylia\.example: Відʼєднано від людини$/);
  });

  it('says what changed when someone changed the lead first, and shows it as it is now', async () => {
    renderLead(LINKED);
    const user = userEvent.setup({ delay: null });
    const now: LeadDetail = { ...LINKED, status: 'in_progress', version: 2, assignee: { id: 2, email: 'colleague@khvylia.example', role: 'editor' } };
    unlink.mockImplementationOnce(async () => {
      stored = now;
      throw conflict(summaryOf(now));
    });
    await user.click(await screen.findByRole('button', { name: 'Відʼєднати від цієї людини' }));
    expect(await within(region()).findByRole('alert')).toHaveTextContent(
      'Заявку щойно змінив хтось інший. Перегляньте зміни й збережіть ще раз Зараз: статус «В роботі», відповідальний colleague@khvylia.example.',
    );
    expect(screen.getByLabelText('Статус')).toHaveValue('in_progress');
    expect(screen.queryByRole('status')).toBeNull();
    // Still joined: the editor may try again, from the version shown now.
    unlink.mockResolvedValueOnce(summaryOf(now));
    await user.click(screen.getByRole('button', { name: 'Відʼєднати від цієї людини' }));
    expect(unlink).toHaveBeenLastCalledWith(7, 2);
  });

  it('shows a viewer the other leads, not the button', async () => {
    renderLead(LINKED, VIEWER);
    expect(await screen.findByRole('region', { name: 'Інші звернення цієї людини' })).toBeInTheDocument();
    expect(within(region()).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Відʼєднати від цієї людини' })).toBeNull();
  });

  it('says nothing of other leads for a person’s first', async () => {
    renderLead();
    expect(await screen.findByRole('region', { name: 'Що надіслано' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Інші звернення цієї людини' })).toBeNull();
  });
});
