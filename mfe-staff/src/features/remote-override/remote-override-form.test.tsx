import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RemoteOverrideState } from '@agency/shared';
import { staffGet, staffSend } from '../../shared/api/staff-api';
import { apiAnswered } from '../../shared/api/__mocks__/staff-api';
import { RemoteOverrideForm } from './RemoteOverrideForm';

jest.mock('../../shared/api/staff-api');
const get = jest.mocked(staffGet);
const send = jest.mocked(staffSend);

const RELEASES = [
  { id: '1.4.0-abc1234-20261129T100000Z', label: '1.4.0 (abc1234), підготовлений' },
  { id: '1.3.0-def5678-20261120T100000Z', label: '1.3.0 (def5678), поточний' },
];
const EXPIRES = '2026-11-30T20:00:00.000Z';

function renderForm(state: RemoteOverrideState = { override: null }, releases = RELEASES) {
  get.mockResolvedValue(state as never);
  render(<RemoteOverrideForm app="blog" releases={releases} />);
  return userEvent.setup({ delay: null });
}

const form = () => screen.getByRole('form', { name: 'Підміна blog у цьому браузері' });
const submit = () => screen.getByRole('button', { name: 'Підмінити' });

beforeEach(() => {
  get.mockReset();
  send.mockReset();
});

describe('RemoteOverrideForm', () => {
  it('says what this browser holds now, and offers the kept releases first', async () => {
    renderForm();
    expect(await screen.findByText('Зараз у цьому браузері нічого не підмінено.')).toBeInTheDocument();
    expect(get).toHaveBeenCalledWith('/releases/override');
    expect(form()).toHaveAccessibleDescription(/^Лише у вашому браузері сайт завантажить blog з іншої збірки.*до 12 годин/);
    expect(screen.getByRole('radio', { name: 'Збережений реліз' })).toBeChecked();
    const release = screen.getByRole('combobox', { name: 'Реліз' });
    expect(release).toHaveValue(RELEASES[0]!.id);
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(RELEASES.map((kept) => kept.label));
    expect(screen.queryByRole('button', { name: 'Завершити підміну' })).toBeNull();
  });

  it('sets a kept release, then offers to open the site and to end it', async () => {
    const user = renderForm();
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Реліз' }), RELEASES[1]!.id);
    send.mockResolvedValueOnce({ override: { app: 'blog', release: RELEASES[1]!.id, port: null, expiresAt: EXPIRES } } as never);
    await user.click(submit());
    expect(send).toHaveBeenCalledWith('post', '/releases/blog/override', { release: RELEASES[1]!.id });
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Підміну ввімкнено.');
    const link = screen.getByRole('link', { name: 'Відкрити сайт у новій вкладці' });
    expect(link).toHaveAttribute('href', '/');
    expect(link).toHaveAttribute('target', '_blank');
    expect(screen.getByText(new RegExp(`^Зараз у цьому браузері blog підмінено: реліз ${RELEASES[1]!.id.replaceAll('.', '\\.')}, до 30\\.11\\.(20)?26, 22:00\\.$`))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Завершити підміну' })).toBeEnabled();
  });

  it('sets a build on a localhost port, within the ports allowed', async () => {
    const user = renderForm();
    await user.click(await screen.findByRole('radio', { name: 'Збірка з мого компʼютера' }));
    const port = screen.getByRole('spinbutton', { name: 'Порт на localhost' });
    expect(port).toHaveAttribute('min', '1024');
    expect(port).toHaveAttribute('max', '65535');
    expect(port).toHaveAccessibleDescription(/^Від 1024 до 65535\. .*CORS, як-от npm run dev -w mfe-blog на порту 8082\./);
    expect(screen.queryByRole('combobox', { name: 'Реліз' })).toBeNull();
    await user.type(port, '5173');
    send.mockResolvedValueOnce({ override: { app: 'blog', release: null, port: 5173, expiresAt: EXPIRES } } as never);
    await user.click(submit());
    expect(send).toHaveBeenCalledWith('post', '/releases/blog/override', { port: 5173 });
    expect(await screen.findByText(/^Зараз у цьому браузері blog підмінено: збірка з http:\/\/localhost:5173, до /)).toBeInTheDocument();
  });

  it('offers only a port when no release is kept', async () => {
    renderForm({ override: null }, []);
    expect(await screen.findByRole('radio', { name: 'Збережений реліз' })).toBeDisabled();
    expect(screen.getByRole('radio', { name: 'Збірка з мого компʼютера' })).toBeChecked();
  });

  it('ends the override of this app', async () => {
    const user = renderForm({ override: { app: 'blog', release: null, port: 5173, expiresAt: EXPIRES } });
    send.mockResolvedValueOnce({ override: null } as never);
    await user.click(await screen.findByRole('button', { name: 'Завершити підміну' }));
    expect(send).toHaveBeenCalledWith('delete', '/releases/blog/override');
    expect(await screen.findByRole('status')).toHaveTextContent('Підміну завершено: цей браузер знову бачить звичайний сайт.');
    expect(screen.getByText('Зараз у цьому браузері нічого не підмінено.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Завершити підміну' })).toBeNull();
  });

  it("says another app's override would be replaced, and offers no end for it here", async () => {
    renderForm({ override: { app: 'home', release: null, port: 8081, expiresAt: EXPIRES } });
    expect(await screen.findByText('Зараз у цьому браузері підмінено інший модуль, home: нова підміна замінить ту.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Завершити підміну' })).toBeNull();
  });

  it("shows the API's refusal", async () => {
    const user = renderForm();
    const message = 'Такого релізу «blog» серед збережених немає: оновіть сторінку й виберіть інший';
    send.mockRejectedValueOnce(apiAnswered(404, { error: { code: 'NOT_FOUND', message } }));
    await user.click(await screen.findByRole('button', { name: 'Підмінити' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.queryByRole('link', { name: 'Відкрити сайт у новій вкладці' })).toBeNull();
  });
});
