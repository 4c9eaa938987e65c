import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STAFF_PATHS, type FollowUpSettingsView, type LeadRoutingMember, type StaffSession } from '@agency/shared';
import { renderConsoleAt } from '../../app/render-console-at';
import { fetchFollowUpSettings, fetchLeadRouting, saveFollowUpSettings, saveLeadRouting, staffGet } from '../../shared/api/staff-api';
import { apiAnswered } from '../../shared/api/__mocks__/staff-api';
import { FollowUpPage } from './FollowUpPage';

jest.mock('../../shared/api/staff-api');
const fetchSettings = jest.mocked(fetchFollowUpSettings);
const saveSettings = jest.mocked(saveFollowUpSettings);
const fetchRouting = jest.mocked(fetchLeadRouting);
const saveRouting = jest.mocked(saveLeadRouting);

const DEFAULTS: FollowUpSettingsView = {
  replies: {
    contact: { subject: 'Ваше звернення №{number} отримано', text: 'Вітаємо, {name}! Відповімо {answer_by}.' },
    applications: { subject: 'Ваш відгук на вакансію «{position}» отримано', text: 'Дякуємо, {name}!' },
  },
  targetMinutes: 120,
  version: 0,
  updatedAt: null,
  updatedBy: null,
};
const MEMBERS: LeadRoutingMember[] = [
  { id: 1, email: 'admin@khvylia.example', role: 'admin', kinds: ['contact', 'applications'], away: false, telegramChatId: null },
  { id: 2, email: 'editor@khvylia.example', role: 'editor', kinds: ['contact'], away: false, telegramChatId: '-100123' },
];
const CHANGED_MESSAGE = 'Налаштування роботи із заявками щойно змінив хтось інший. Перегляньте зміни й збережіть ще раз';

function renderPage(view: FollowUpSettingsView = DEFAULTS) {
  fetchSettings.mockResolvedValue(view);
  fetchRouting.mockResolvedValue(MEMBERS);
  render(<FollowUpPage />);
}

const target = () => screen.getByRole('spinbutton', { name: 'Час на першу відповідь, робочих хвилин' });
const replyOf = (legend: string) => within(screen.getByRole('group', { name: legend }));
const subjectOf = (legend: string) => replyOf(legend).getByRole('textbox', { name: 'Тема листа' });
const textOf = (legend: string) => replyOf(legend).getByRole('textbox', { name: 'Текст листа' });
const saveButton = () => screen.getByRole('button', { name: 'Зберегти' });
const rowOf = (email: string) => within(screen.getByRole('rowheader', { name: new RegExp(`^${email.replace(/\./g, '\\.')}`) }).closest('tr')!);

beforeEach(() => {
  jest.resetAllMocks();
});

describe('the follow-up settings', () => {
  it('shows the target with its working time, each kind’s reply and the placeholders it may name', async () => {
    renderPage();
    expect(await screen.findByText('Діють типові налаштування: їх ще ніхто не змінював.')).toBeInTheDocument();
    expect(target()).toHaveValue(120);
    expect(target()).toHaveAttribute('min', '1');
    expect(target()).toHaveAttribute('max', '2700');
    expect(target()).toHaveAccessibleDescription(/^Це 2 год робочого часу \(пн–пт, 09:00–18:00 за Києвом\)\. Заявку, що чекає на першу відповідь довше, буде позначено простроченою/);
    expect(subjectOf('Звернення')).toHaveValue('Ваше звернення №{number} отримано');
    expect(textOf('Звернення')).toHaveValue('Вітаємо, {name}! Відповімо {answer_by}.');
    expect(subjectOf('Відгук на вакансію')).toHaveValue('Ваш відгук на вакансію «{position}» отримано');
    expect(textOf('Відгук на вакансію')).toHaveAccessibleDescription(/^Підстановки, які можна вживати в темі й тексті: \{name\} — імʼя відвідувача.*\{position\} — вакансія \(для відгуків\)$/);
    expect(replyOf('Звернення').getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      '{name} — імʼя відвідувача',
      '{number} — номер звернення',
      '{message} — що відвідувач надіслав',
      '{answer_by} — коли агенція відповість',
      '{position} — вакансія (для відгуків)',
    ]);
    expect(saveButton()).toBeDisabled();
  });

  it('says the target in working time as it is typed', async () => {
    renderPage();
    const user = userEvent.setup({ delay: null });
    await user.clear(await screen.findByRole('spinbutton', { name: 'Час на першу відповідь, робочих хвилин' }));
    await user.type(target(), '90');
    expect(target()).toHaveAccessibleDescription(/^Це 1 год 30 хв робочого часу/);
    await user.type(target(), '000');
    expect(target()).toHaveAccessibleDescription(/^Заявку, що чекає на першу відповідь довше, буде позначено простроченою \(від 1 до 2700 хвилин\)\.$/);
  });

  it('saves the target and both replies from the version it loaded, then shows what the server kept', async () => {
    renderPage();
    const user = userEvent.setup({ delay: null });
    await user.clear(await screen.findByRole('spinbutton', { name: 'Час на першу відповідь, робочих хвилин' }));
    await user.type(target(), '60');
    await user.clear(textOf('Звернення'));
    await user.type(textOf('Звернення'), 'Дякуємо, {{name}!');
    const kept: FollowUpSettingsView = {
      ...DEFAULTS,
      replies: { ...DEFAULTS.replies, contact: { ...DEFAULTS.replies.contact, text: 'Дякуємо, {name}!' } },
      targetMinutes: 60,
      version: 1,
      updatedAt: '2026-11-30T08:00:00.000Z',
      updatedBy: 'admin@khvylia.example',
    };
    saveSettings.mockResolvedValueOnce(kept);
    await user.click(saveButton());
    expect(saveSettings).toHaveBeenCalledWith({ replies: kept.replies, targetMinutes: 60, version: 0 });
    expect(await screen.findByRole('status')).toHaveTextContent('Збережено.');
    expect(screen.getByText(/^Востаннє змінено 30\.11\.(20)?26, 10:00, admin@khvylia\.example\.$/)).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
  });

  it('shows the settings as they are now when someone else saved first, and can put the refused edit back', async () => {
    renderPage();
    const user = userEvent.setup({ delay: null });
    await user.clear(await screen.findByRole('spinbutton', { name: 'Час на першу відповідь, робочих хвилин' }));
    await user.type(target(), '30');
    const current: FollowUpSettingsView = { ...DEFAULTS, targetMinutes: 240, version: 2, updatedAt: '2026-11-30T08:00:00.000Z', updatedBy: 'colleague@khvylia.example' };
    saveSettings.mockRejectedValueOnce(apiAnswered(409, { error: { code: 'FOLLOW_UP_SETTINGS_CHANGED', message: CHANGED_MESSAGE }, current }));
    await user.click(saveButton());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(`${CHANGED_MESSAGE} Нижче показано налаштування, які діють зараз; ваші зміни не збережено.`);
    expect(target()).toHaveValue(240);
    expect(screen.getByText(/, colleague@khvylia\.example\.$/)).toBeInTheDocument();

    await user.click(within(alert).getByRole('button', { name: 'Повернути мої зміни у форму' }));
    expect(target()).toHaveValue(30);
    saveSettings.mockResolvedValueOnce({ ...current, targetMinutes: 30, version: 3 });
    await user.click(saveButton());
    expect(saveSettings).toHaveBeenLastCalledWith({ replies: DEFAULTS.replies, targetMinutes: 30, version: 2 });
    expect(await screen.findByRole('status')).toHaveTextContent('Збережено.');
  });

  it('shows a reply refused for an unknown placeholder at its fields, keeping what was typed', async () => {
    renderPage();
    const user = userEvent.setup({ delay: null });
    await screen.findByText('Діють типові налаштування: їх ще ніхто не змінював.');
    await user.type(textOf('Відгук на вакансію'), ' {{city}');
    const fieldMessage = 'Невідомі підстановки: {city}. Можна використовувати лише ті, що перелічені під полем';
    saveSettings.mockRejectedValueOnce(apiAnswered(400, { error: { code: 'VALIDATION_ERROR', message: 'Перевірте правильність заповнення полів', fields: { 'replies.applications': fieldMessage } } }));
    await user.click(saveButton());

    expect(await screen.findByRole('alert')).toHaveTextContent(/^Перевірте правильність заповнення полів$/);
    expect(textOf('Відгук на вакансію')).toHaveValue('Дякуємо, {name}! {city}');
    expect(textOf('Відгук на вакансію')).toBeInvalid();
    expect(textOf('Відгук на вакансію')).toHaveAccessibleDescription(new RegExp(`^${fieldMessage.replace(/[{}.]/g, '\\$&')} Підстановки`));
    expect(subjectOf('Відгук на вакансію')).toBeInvalid();
    expect(textOf('Звернення')).toBeValid();
    expect(replyOf('Звернення').queryByText(fieldMessage)).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });
});

describe('the lead routing', () => {
  it('shows each member with the kinds they take, whether away, and their Telegram chat', async () => {
    renderPage();
    expect(await screen.findByRole('table', { name: 'Хто які заявки бере' })).toBeInTheDocument();
    expect(rowOf('admin@khvylia.example').getByRole('checkbox', { name: 'бере звернення' })).toBeChecked();
    expect(rowOf('admin@khvylia.example').getByRole('checkbox', { name: 'бере відгуки' })).toBeChecked();
    expect(rowOf('editor@khvylia.example').getByRole('checkbox', { name: 'бере відгуки' })).not.toBeChecked();
    expect(rowOf('editor@khvylia.example').getByRole('checkbox', { name: 'Відсутній' })).not.toBeChecked();
    expect(rowOf('editor@khvylia.example').getByRole('textbox', { name: 'Telegram chat id' })).toHaveValue('-100123');
    expect(rowOf('editor@khvylia.example').getByRole('rowheader')).toHaveTextContent('editor@khvylia.exampleРедактор');
    expect(rowOf('editor@khvylia.example').getByRole('button', { name: 'Зберегти: editor@khvylia.example' })).toBeDisabled();
  });

  it('saves one member’s row: the kinds in order, away, and an emptied chat as none', async () => {
    renderPage();
    const user = userEvent.setup({ delay: null });
    await screen.findByRole('table', { name: 'Хто які заявки бере' });
    const row = rowOf('editor@khvylia.example');
    await user.click(row.getByRole('checkbox', { name: 'бере відгуки' }));
    await user.click(row.getByRole('checkbox', { name: 'Відсутній' }));
    await user.clear(row.getByRole('textbox', { name: 'Telegram chat id' }));
    saveRouting.mockResolvedValueOnce({ ...MEMBERS[1]!, kinds: ['applications', 'contact'], away: true, telegramChatId: null });
    await user.click(row.getByRole('button', { name: 'Зберегти: editor@khvylia.example' }));
    expect(saveRouting).toHaveBeenCalledWith(2, { kinds: ['contact', 'applications'], away: true, telegramChatId: null });
    expect(await row.findByRole('status')).toHaveTextContent('Збережено');
    expect(row.getByRole('button', { name: 'Зберегти: editor@khvylia.example' })).toBeDisabled();
    expect(rowOf('admin@khvylia.example').queryByRole('status')).toBeNull();
  });

  it('shows why a row was refused in that row, keeping what was typed', async () => {
    renderPage();
    const user = userEvent.setup({ delay: null });
    await screen.findByRole('table', { name: 'Хто які заявки бере' });
    const row = rowOf('admin@khvylia.example');
    await user.type(row.getByRole('textbox', { name: 'Telegram chat id' }), 'team chat');
    saveRouting.mockRejectedValueOnce(apiAnswered(400, { error: { code: 'VALIDATION_ERROR', message: 'Перевірте правильність заповнення полів', fields: { telegramChatId: 'Некоректне значення' } } }));
    await user.click(row.getByRole('button', { name: 'Зберегти: admin@khvylia.example' }));
    expect(await row.findByRole('alert')).toHaveTextContent('Перевірте правильність заповнення полів: Некоректне значення');
    expect(row.getByRole('textbox', { name: 'Telegram chat id' })).toHaveValue('team chat');
  });
});

describe('the console’s follow-up page', () => {
  const renderConsole = (role: StaffSession['member']['role']) => {
    fetchSettings.mockResolvedValue(DEFAULTS);
    fetchRouting.mockResolvedValue(MEMBERS);
    renderConsoleAt(STAFF_PATHS.followUp, role, undefined);
  };

  it('is linked for admins', async () => {
    renderConsole('admin');
    expect(await screen.findByRole('heading', { level: 1, name: 'Робота із заявками' })).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Консоль' })).getByRole('link', { name: 'Робота із заявками' })).toHaveAttribute('href', STAFF_PATHS.followUp);
    expect(await screen.findByRole('table', { name: 'Хто які заявки бере' })).toBeInTheDocument();
  });

  it('is neither linked nor shown for an editor', async () => {
    renderConsole('editor');
    expect(await screen.findByText('Ваша роль не дозволяє відкрити цю сторінку.')).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Консоль' })).queryByRole('link', { name: 'Робота із заявками' })).toBeNull();
    expect(fetchSettings).not.toHaveBeenCalled();
    expect(fetchRouting).not.toHaveBeenCalled();
    expect(staffGet).toHaveBeenCalledWith('/session');
  });
});
