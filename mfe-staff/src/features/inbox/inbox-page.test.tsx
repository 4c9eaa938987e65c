import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LeadFilter, LeadPage, LeadSummary, StaffSession } from '@agency/shared';
import { MemoryRouter, Route, Routes } from '@agency/shared/router';
import { staffGet } from '../../shared/api/staff-api';
import { StaffSessionProvider } from '../../shared/session/staff-session';
import { InboxPage } from './InboxPage';

jest.mock('../../shared/api/staff-api');
const get = jest.mocked(staffGet);

const EDITOR: StaffSession = { member: { id: 1, email: 'editor@khvylia.example', role: 'editor', releaseApps: [] }, csrfToken: 't', passkeys: 1, totp: false, recoveryCodesLeft: 10 };

const lead = (id: number, name: string, more: Partial<LeadSummary> = {}): LeadSummary => ({
  id,
  kind: 'contact',
  receivedAt: '2026-11-25T10:00:00.000Z',
  name,
  email: `${id}@example.com`,
  subject: '',
  source: '',
  status: 'new',
  assignee: null,
  version: 1,
  spamReasons: [],
  personLeads: 1,
  firstResponseAt: null,
  waitedMinutes: 0,
  overdue: false,
  ...more,
});

/** A lead the defence let through although it counted something against it, then one it held. */
const LET_THROUGH = lead(2, 'Олена Коваль', { spamReasons: ['hurried'] });
const HELD = lead(3, 'SEO Boost', { status: 'spam', spamReasons: ['no-token', 'links', 'spam-phrase'] });

/** Answers `/leads` with the spam list when asked for it, else with the inbox (`inbox`); `held` for this week's count. */
function renderInbox(held: number, inbox: LeadSummary[] = [LET_THROUGH]) {
  get.mockImplementation(async (path: string, params?: object) => {
    if (path === '/session') return EDITOR as never;
    if (path === '/members') return [] as never;
    const spam = (params as LeadFilter | undefined)?.status === 'spam';
    return { leads: spam ? [HELD] : inbox, next: null, heldThisWeek: held } satisfies LeadPage as never;
  });
  render(
    <MemoryRouter initialEntries={['/staff']}>
      <StaffSessionProvider>
        <Routes>
          <Route path="/staff" element={<InboxPage />} />
        </Routes>
      </StaffSessionProvider>
    </MemoryRouter>,
  );
}

const rowOf = (name: string) => screen.getByRole('link', { name }).closest('tr')!;

describe('the inbox’s spam', () => {
  beforeEach(() => jest.clearAllMocks());

  it('links how many leads were held this week to the spam list, where each says why it was held', async () => {
    renderInbox(3);
    const user = userEvent.setup({ delay: null });
    const held = await screen.findByRole('link', { name: 'За тиждень затримано як спам: 3' });
    expect(held).toHaveAttribute('href', '/staff?status=spam');
    expect(within(rowOf('Олена Коваль')).getByText('Нова')).toBeInTheDocument();
    expect(within(rowOf('Олена Коваль')).queryByText(/Затримано/)).toBeNull();

    await user.click(held);
    expect(await screen.findByRole('link', { name: 'SEO Boost' })).toBeInTheDocument();
    expect(get).toHaveBeenLastCalledWith('/leads', { status: 'spam' });
    expect(screen.getByLabelText('Статус')).toHaveValue('spam');
    const status = within(rowOf('SEO Boost')).getByText('Спам').closest('td')!;
    expect(status).toHaveTextContent('СпамЗатримано: Без токена форми (і ще 2)');
  });

  it('says when nothing was held this week, with nothing to follow', async () => {
    renderInbox(0);
    expect(await screen.findByText('За тиждень затримано як спам: 0')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /затримано як спам/ })).toBeNull();
  });
});

describe('the inbox’s follow-up', () => {
  beforeEach(() => jest.clearAllMocks());

  const COLLEAGUE = { id: 2, email: 'colleague@khvylia.example', role: 'editor' as const };
  const cellOf = (name: string, column: string) => rowOf(name).querySelector(`td[data-label="${column}"]`)!;

  it('says how many leads a person sent, in Ukrainian plural, only when more than one', async () => {
    renderInbox(0, [lead(4, 'Олена Коваль', { personLeads: 2 }), lead(5, 'Іван Петренко', { personLeads: 5 }), lead(6, 'Марія Шевчук', { personLeads: 21 }), lead(7, 'Новий Клієнт')]);
    expect(await screen.findByRole('link', { name: 'Олена Коваль' })).toBeInTheDocument();
    expect(cellOf('Олена Коваль', 'Імʼя')).toHaveTextContent(/^Олена Коваль 2 звернення$/);
    expect(cellOf('Іван Петренко', 'Імʼя')).toHaveTextContent(/^Іван Петренко 5 звернень$/);
    expect(cellOf('Марія Шевчук', 'Імʼя')).toHaveTextContent(/^Марія Шевчук 21 звернення$/);
    expect(cellOf('Новий Клієнт', 'Імʼя')).toHaveTextContent(/^Новий Клієнт$/);
  });

  it('flags a lead waiting past the target in words, and one nobody took while there is work to do', async () => {
    renderInbox(0, [
      lead(4, 'Прострочена', { overdue: true, waitedMinutes: 200 }),
      lead(5, 'В роботі без нікого', { status: 'in_progress' }),
      lead(6, 'Взята', { assignee: COLLEAGUE, firstResponseAt: '2026-11-25T10:30:00.000Z', waitedMinutes: 30 }),
      lead(7, 'Успішна', { status: 'won' }),
    ]);
    expect(await screen.findByRole('link', { name: 'Прострочена' })).toBeInTheDocument();
    expect(cellOf('Прострочена', 'Статус')).toHaveTextContent(/^Нова Прострочено$/);
    expect(cellOf('Прострочена', 'Відповідальний')).toHaveTextContent('Без відповідального');
    expect(cellOf('В роботі без нікого', 'Відповідальний')).toHaveTextContent('Без відповідального');
    expect(within(rowOf('В роботі без нікого')).queryByText('Прострочено')).toBeNull();
    expect(cellOf('Взята', 'Відповідальний')).toHaveTextContent(/^colleague@khvylia\.example$/);
    // A lead whose work is over needs nobody.
    expect(cellOf('Успішна', 'Відповідальний')).toHaveTextContent(/^—$/);
  });
});
