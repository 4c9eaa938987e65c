import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LeadFilter, LeadPage, LeadSummary, StaffSession } from '@agency/shared';
import { MemoryRouter, Route, Routes } from '@agency/shared/router';
import { staffGet } from '../../shared/api/staff-api';
import { StaffSessionProvider } from '../../shared/session/staff-session';
import { InboxPage } from './InboxPage';

jest.mock('../../shared/api/staff-api');
const get = jest.mocked(staffGet);

const EDITOR: StaffSession = { member: { id: 1, email: 'editor@khvylia.example', role: 'editor' }, csrfToken: 't', passkeys: 1, totp: false, recoveryCodesLeft: 10 };

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
  ...more,
});

/** A lead the defence let through although it counted something against it, then one it held. */
const LET_THROUGH = lead(2, 'Олена Коваль', { spamReasons: ['hurried'] });
const HELD = lead(3, 'SEO Boost', { status: 'spam', spamReasons: ['no-token', 'links', 'spam-phrase'] });

/** Answers `/leads` with the spam list when asked for it, else with the inbox; `held` for this week's count. */
function renderInbox(held: number) {
  get.mockImplementation(async (path: string, params?: object) => {
    if (path === '/session') return EDITOR as never;
    if (path === '/members') return [] as never;
    const spam = (params as LeadFilter | undefined)?.status === 'spam';
    return { leads: spam ? [HELD] : [LET_THROUGH], next: null, heldThisWeek: held } satisfies LeadPage as never;
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
