import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STAFF_PATHS, type SpamSettingsView, type StaffSession } from '@agency/shared';
import { renderConsoleAt } from '../../app/render-console-at';
import { staffGet, staffSend } from '../../shared/api/staff-api';
import { apiAnswered } from '../../shared/api/__mocks__/staff-api';
import { SpamSettingsPage } from './SpamSettingsPage';

jest.mock('../../shared/api/staff-api');
const get = jest.mocked(staffGet);
const send = jest.mocked(staffSend);

const DEFAULTS: SpamSettingsView = { threshold: 10, phrases: ['casino', 'seo services'], version: 0, updatedAt: null, updatedBy: null };
const CHANGED_MESSAGE = 'Налаштування спаму щойно змінив хтось інший. Перегляньте зміни й збережіть ще раз';

function renderPage(view: SpamSettingsView = DEFAULTS) {
  get.mockResolvedValue(view as never);
  render(<SpamSettingsPage />);
}

const threshold = () => screen.getByRole('spinbutton', { name: 'Поріг' });
const phrases = () => screen.getByRole('textbox', { name: 'Фрази спаму' });
const saveButton = () => screen.getByRole('button', { name: 'Зберегти' });

beforeEach(() => {
  get.mockReset();
  send.mockReset();
});

describe('the spam settings page', () => {
  it('shows the threshold within its bounds, the phrases one a line, and that the defaults hold', async () => {
    renderPage();
    expect(await screen.findByText('Діють типові налаштування: їх ще ніхто не змінював.')).toBeInTheDocument();
    expect(get).toHaveBeenCalledWith('/spam-settings');
    expect(threshold()).toHaveValue(10);
    expect(threshold()).toHaveAttribute('min', '1');
    expect(threshold()).toHaveAttribute('max', '100');
    expect(threshold()).toHaveAccessibleDescription('Заявку буде затримано, якщо бали її ознак спаму разом сягають цього числа (від 1 до 100).');
    expect(phrases()).toHaveValue('casino\nseo services');
    expect(phrases()).toHaveAccessibleDescription(/^Кожна фраза з нового рядка, до 300 фраз по 120 символів;.* Зараз фраз: 2\.$/);
    expect(saveButton()).toBeDisabled();
  });

  it('says who changed the settings last, and when', async () => {
    renderPage({ ...DEFAULTS, version: 4, updatedAt: '2026-11-28T10:00:00.000Z', updatedBy: 'admin@khvylia.example' });
    expect(await screen.findByText(/^Востаннє змінено 28\.11\.(20)?26, 12:00, admin@khvylia\.example\.$/)).toBeInTheDocument();
  });

  it('saves from the version it loaded, then shows what the server kept', async () => {
    renderPage();
    const user = userEvent.setup({ delay: null });
    await user.clear(await screen.findByRole('spinbutton', { name: 'Поріг' }));
    await user.type(threshold(), '12');
    await user.type(phrases(), '{Enter}  Cheap   links {Enter}{Enter}casino');
    send.mockResolvedValueOnce({ threshold: 12, phrases: ['casino', 'seo services', 'Cheap links'], version: 1, updatedAt: '2026-11-30T08:00:00.000Z', updatedBy: 'admin@khvylia.example' } as never);
    await user.click(saveButton());
    expect(send).toHaveBeenCalledWith('put', '/spam-settings', { threshold: 12, phrases: ['casino', 'seo services', 'Cheap   links', 'casino'], version: 0 });
    expect(await screen.findByRole('status')).toHaveTextContent('Збережено.');
    expect(threshold()).toHaveValue(12);
    expect(phrases()).toHaveValue('casino\nseo services\nCheap links');
    expect(screen.getByText(/^Востаннє змінено 30\.11\.(20)?26, 10:00, admin@khvylia\.example\.$/)).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
  });

  it('shows the settings as they are now when someone else saved first, and can put the refused edit back', async () => {
    renderPage();
    const user = userEvent.setup({ delay: null });
    await user.clear(await screen.findByRole('spinbutton', { name: 'Поріг' }));
    await user.type(threshold(), '5');
    const current: SpamSettingsView = { threshold: 15, phrases: ['casino'], version: 2, updatedAt: '2026-11-30T08:00:00.000Z', updatedBy: 'colleague@khvylia.example' };
    send.mockRejectedValueOnce(apiAnswered(409, { error: { code: 'SPAM_SETTINGS_CHANGED', message: CHANGED_MESSAGE }, current }));
    await user.click(saveButton());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(`${CHANGED_MESSAGE} Нижче показано налаштування, які діють зараз; ваші зміни не збережено.`);
    expect(threshold()).toHaveValue(15);
    expect(phrases()).toHaveValue('casino');
    expect(screen.getByText(/, colleague@khvylia\.example\.$/)).toBeInTheDocument();
    expect(screen.queryByRole('status')).toBeNull();

    await user.click(within(alert).getByRole('button', { name: 'Повернути мої зміни у форму' }));
    expect(threshold()).toHaveValue(5);
    expect(phrases()).toHaveValue('casino\nseo services');
    send.mockResolvedValueOnce({ ...current, threshold: 5, phrases: ['casino', 'seo services'], version: 3 } as never);
    await user.click(saveButton());
    expect(send).toHaveBeenLastCalledWith('put', '/spam-settings', { threshold: 5, phrases: ['casino', 'seo services'], version: 2 });
    expect(await screen.findByRole('status')).toHaveTextContent('Збережено.');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the API’s message when it refuses the settings, keeping what was typed', async () => {
    renderPage();
    const user = userEvent.setup({ delay: null });
    await user.type(await screen.findByRole('textbox', { name: 'Фрази спаму' }), '{Enter}a very long phrase');
    send.mockRejectedValueOnce(apiAnswered(400, { error: { code: 'VALIDATION_FAILED', message: 'Фраза довша за 120 символів' } }));
    await user.click(saveButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Фраза довша за 120 символів');
    expect(phrases()).toHaveValue('casino\nseo services\na very long phrase');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('shows the API’s message when the settings cannot be read', async () => {
    get.mockRejectedValue(apiAnswered(503, { error: { code: 'UNAVAILABLE', message: 'Сервер тимчасово недоступний' } }));
    render(<SpamSettingsPage />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Сервер тимчасово недоступний');
    expect(screen.queryByRole('button', { name: 'Зберегти' })).toBeNull();
  });
});

describe('the console’s spam page', () => {
  const renderConsole = (role: StaffSession['member']['role']) => renderConsoleAt(STAFF_PATHS.spamSettings, role, DEFAULTS);

  it('is linked for admins', async () => {
    renderConsole('admin');
    expect(await screen.findByRole('heading', { level: 1, name: 'Спам' })).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Консоль' })).getByRole('link', { name: 'Спам' })).toHaveAttribute('href', STAFF_PATHS.spamSettings);
  });

  it('is neither linked nor shown for an editor', async () => {
    renderConsole('editor');
    expect(await screen.findByText('Ваша роль не дозволяє відкрити цю сторінку.')).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Консоль' })).queryByRole('link', { name: 'Спам' })).toBeNull();
    expect(get).not.toHaveBeenCalledWith('/spam-settings');
  });
});
