import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LeadDetail, StaffSession } from '@agency/shared';
import { MemoryRouter, Route, Routes } from '@agency/shared/router';
import { staffGet, staffSend } from '../../shared/api/staff-api';
import { apiAnswered } from '../../shared/api/__mocks__/staff-api';
import { StaffSessionProvider } from '../../shared/session/staff-session';
import { LeadPage } from './LeadPage';

jest.mock('../../shared/api/staff-api');
const get = jest.mocked(staffGet);
const send = jest.mocked(staffSend);

const EDITOR: StaffSession = { member: { id: 1, email: 'editor@khvylia.example', role: 'editor' }, csrfToken: 't', passkeys: 1, totp: false, recoveryCodesLeft: 10 };

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
  fields: [
    { name: 'name', value: '<img src=x onerror=alert(1)>' },
    { name: 'message', value: '<b>жирний</b>\nдругий рядок' },
  ],
  attribution: { utm_source: 'google', referrer: null },
  deliveries: [{ channel: 'webhook', status: 'failed', attempts: 3, lastError: 'HTTP 500', deliveredAt: null }],
  notes: [],
  history: [],
};

const conflict = (current: object) =>
  apiAnswered(409, { error: { code: 'LEAD_CHANGED', message: 'Заявку щойно змінив хтось інший. Перегляньте зміни й збережіть ще раз' }, current });

function renderLead() {
  get.mockImplementation(async (path: string) => (path === '/session' ? EDITOR : path === '/members' ? [{ ...EDITOR.member, createdAt: '' }] : LEAD) as never);
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
