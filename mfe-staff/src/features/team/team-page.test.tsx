import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { APP_NAMES, STAFF_PATHS, type MemberList } from '@agency/shared';
import { renderConsoleAt } from '../../app/render-console-at';
import { staffSend } from '../../shared/api/staff-api';

jest.mock('../../shared/api/staff-api');
const send = jest.mocked(staffSend);

const MEMBERS: MemberList = [
  { id: 1, email: 'someone@khvylia.example', role: 'admin', releaseApps: [], createdAt: '2026-01-01T10:00:00.000Z' },
  { id: 2, email: 'blog-team@khvylia.example', role: 'release_manager', releaseApps: ['blog', 'forms'], createdAt: '2026-02-01T10:00:00.000Z' },
  { id: 3, email: 'reader@khvylia.example', role: 'viewer', releaseApps: [], createdAt: '2026-03-01T10:00:00.000Z' },
];

beforeEach(() => send.mockReset());

async function renderTeam() {
  renderConsoleAt(STAFF_PATHS.team, 'admin', MEMBERS);
  await screen.findByRole('cell', { name: 'reader@khvylia.example' });
}

const form = () => screen.getByRole('button', { name: 'Запросити' }).closest('form')!;
const rowOf = (email: string) => screen.getByRole('cell', { name: email }).closest('tr')!;
const appsIn = (scope: HTMLElement) => within(scope).queryByRole('group', { name: 'Застосунки' });
const labelOf = (box: HTMLElement) => (box as HTMLInputElement).labels?.[0]?.textContent?.trim();
const checked = (group: HTMLElement) => within(group).getAllByRole<HTMLInputElement>('checkbox').filter((box) => box.checked).map(labelOf);

describe('the team page', () => {
  it('asks which apps a release manager is invited for, one checkbox an app, and sends them', async () => {
    const user = userEvent.setup();
    send.mockResolvedValue({ link: 'https://khvylia.example/staff/invite#token', expiresAt: '2026-12-04T10:00:00.000Z' } as never);
    await renderTeam();
    expect(appsIn(form())).toBeNull();
    await user.type(within(form()).getByLabelText('E-mail'), 'forms-team@khvylia.example');
    await user.selectOptions(within(form()).getByLabelText('Роль'), 'Менеджер релізів');
    const apps = appsIn(form())!;
    expect(within(apps).getAllByRole('checkbox').map(labelOf)).toEqual([...APP_NAMES]);

    // None chosen: the page says so and sends nothing.
    await user.click(screen.getByRole('button', { name: 'Запросити' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Виберіть щонайменше один застосунок, релізами якого керуватиме менеджер релізів');
    expect(send).not.toHaveBeenCalled();

    await user.click(within(apps).getByRole('checkbox', { name: 'forms' }));
    await user.click(within(apps).getByRole('checkbox', { name: 'blog' }));
    expect(checked(apps)).toEqual(['blog', 'forms']);
    await user.click(screen.getByRole('button', { name: 'Запросити' }));
    expect(send).toHaveBeenCalledWith('post', '/members/invitations', { email: 'forms-team@khvylia.example', role: 'release_manager', releaseApps: ['blog', 'forms'] });
    expect(await screen.findByTestId('invitation-link')).toHaveTextContent('https://khvylia.example/staff/invite#token');
  });

  it('invites other roles with no apps', async () => {
    const user = userEvent.setup();
    send.mockResolvedValue({ link: 'https://khvylia.example/staff/invite#token', expiresAt: '2026-12-04T10:00:00.000Z' } as never);
    await renderTeam();
    await user.type(within(form()).getByLabelText('E-mail'), 'writer@khvylia.example');
    await user.selectOptions(within(form()).getByLabelText('Роль'), 'Редактор');
    expect(appsIn(form())).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Запросити' }));
    expect(send).toHaveBeenCalledWith('post', '/members/invitations', { email: 'writer@khvylia.example', role: 'editor' });
  });

  it('lists a release manager’s apps, and changes them only when saved', async () => {
    const user = userEvent.setup();
    await renderTeam();
    const row = rowOf('blog-team@khvylia.example');
    expect(row).toHaveTextContent('Застосунки: blog, forms');
    expect(appsIn(rowOf('reader@khvylia.example'))).toBeNull();

    await user.click(within(row).getByRole('button', { name: 'Змінити застосунки blog-team@khvylia.example' }));
    const apps = appsIn(row)!;
    expect(checked(apps)).toEqual(['blog', 'forms']);
    await user.click(within(apps).getByRole('checkbox', { name: 'forms' }));
    await user.click(within(apps).getByRole('checkbox', { name: 'home' }));
    expect(send).not.toHaveBeenCalled();
    await user.click(within(row).getByRole('button', { name: 'Зберегти' }));
    expect(send).toHaveBeenCalledWith('patch', '/members/2', { role: 'release_manager', releaseApps: ['home', 'blog'] });
  });

  it('makes someone a release manager once their apps are chosen, and another role at once', async () => {
    const user = userEvent.setup();
    await renderTeam();
    const row = rowOf('reader@khvylia.example');
    await user.selectOptions(within(row).getByRole('combobox', { name: 'Роль reader@khvylia.example' }), 'Менеджер релізів');
    expect(send).not.toHaveBeenCalled();
    const apps = appsIn(row)!;
    expect(checked(apps)).toEqual([]);
    await user.click(within(row).getByRole('button', { name: 'Зберегти' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Виберіть щонайменше один застосунок');
    expect(send).not.toHaveBeenCalled();
    await user.click(within(apps).getByRole('checkbox', { name: 'shell' }));
    await user.click(within(row).getByRole('button', { name: 'Зберегти' }));
    expect(send).toHaveBeenCalledWith('patch', '/members/3', { role: 'release_manager', releaseApps: ['shell'] });

    // Cancelled, the row is as it was.
    send.mockClear();
    const role = within(row).getByRole('combobox', { name: 'Роль reader@khvylia.example' });
    await user.selectOptions(role, 'Менеджер релізів');
    await user.click(within(row).getByRole('button', { name: 'Скасувати' }));
    expect(appsIn(row)).toBeNull();
    expect(role).toHaveDisplayValue('Читач');
    expect(send).not.toHaveBeenCalled();

    // Another role is sent at once, with no apps.
    const manager = rowOf('blog-team@khvylia.example');
    await user.selectOptions(within(manager).getByRole('combobox', { name: 'Роль blog-team@khvylia.example' }), 'Редактор');
    expect(send).toHaveBeenCalledWith('patch', '/members/2', { role: 'editor' });
  });
});
