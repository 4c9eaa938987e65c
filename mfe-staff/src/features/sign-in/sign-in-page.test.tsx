import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { StaffSession } from '@agency/shared';
import { MemoryRouter, Route, Routes } from '@agency/shared/router';
import { staffGet, staffSend } from '../../shared/api/staff-api';
import { apiAnswered } from '../../shared/api/__mocks__/staff-api';
import { StaffSessionProvider } from '../../shared/session/staff-session';
import { SignInPage } from './SignInPage';

jest.mock('../../shared/api/staff-api');
const get = jest.mocked(staffGet);
const send = jest.mocked(staffSend);

const answered = (status: number, message: string) => apiAnswered(status, { error: { code: 'X', message } });

const SESSION: StaffSession = { member: { id: 1, email: 'marta@khvylia.example', role: 'viewer', releaseApps: [] }, csrfToken: 't', passkeys: 0, totp: true, recoveryCodesLeft: 9 };

function renderPage() {
  get.mockRejectedValue(answered(401, 'Увійдіть, щоб продовжити'));
  render(
    <MemoryRouter initialEntries={['/staff/login']}>
      <StaffSessionProvider>
        <Routes>
          <Route path="/staff/login" element={<SignInPage />} />
          <Route path="/staff" element={<p>Заявки</p>} />
        </Routes>
      </StaffSessionProvider>
    </MemoryRouter>,
  );
  return userEvent.setup({ delay: null });
}

describe('the sign-in page', () => {
  beforeEach(() => jest.clearAllMocks());

  it('signs in with an e-mail and a code from the app, then opens the inbox', async () => {
    const user = renderPage();
    send.mockResolvedValueOnce(SESSION);
    await user.type(screen.getByLabelText('E-mail'), 'marta@khvylia.example');
    await user.type(screen.getByLabelText('Код із застосунку'), '123456');
    await user.click(screen.getByRole('button', { name: 'Увійти' }));
    expect(send).toHaveBeenCalledWith('post', '/sign-in/code', { email: 'marta@khvylia.example', code: '123456' });
    expect(await screen.findByText('Заявки')).toBeInTheDocument();
  });

  it('takes a recovery code instead, and says why a sign-in was refused', async () => {
    const user = renderPage();
    await user.click(screen.getByRole('button', { name: 'Немає застосунку? Увійти з кодом відновлення' }));
    send.mockRejectedValueOnce(answered(401, 'Невірна адреса електронної пошти або код'));
    await user.type(screen.getByLabelText('E-mail'), 'marta@khvylia.example');
    await user.type(screen.getByLabelText('Код відновлення'), 'abcde-fghij');
    await user.click(screen.getByRole('button', { name: 'Увійти' }));
    expect(send).toHaveBeenCalledWith('post', '/sign-in/recovery', { email: 'marta@khvylia.example', code: 'abcde-fghij' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Невірна адреса електронної пошти або код');
  });
});
