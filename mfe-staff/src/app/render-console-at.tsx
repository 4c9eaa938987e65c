import { render } from '@testing-library/react';
import type { StaffSession } from '@agency/shared';
import { MemoryRouter, Route, Routes } from '@agency/shared/router';
import { staffGet } from '../shared/api/staff-api';
import StaffConsole from './StaffConsole';

/**
 * For tests that mock the staff API (`jest.mock('…/shared/api/staff-api')`): the whole console at
 * `path`, signed in as a member with `role` (a release manager of `releaseApps`); `GET /session`
 * answers that member, any other GET `answer`. How a page is linked in the console's navigation
 * and guarded by role.
 */
export function renderConsoleAt(path: string, role: StaffSession['member']['role'], answer: unknown, releaseApps: string[] = []): void {
  const member = { id: 1, email: 'someone@khvylia.example', role, releaseApps };
  const session: StaffSession = { member, csrfToken: 't', passkeys: 1, totp: false, recoveryCodesLeft: 10 };
  jest.mocked(staffGet).mockImplementation(async (asked: string) => (asked === '/session' ? session : answer) as never);
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/staff/*" element={<StaffConsole />} />
      </Routes>
    </MemoryRouter>,
  );
}
