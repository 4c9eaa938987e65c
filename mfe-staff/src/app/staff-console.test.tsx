import { screen } from '@testing-library/react';
import { STAFF_PATHS, type StaffRole } from '@agency/shared';
import { staffGet } from '../shared/api/staff-api';
import { renderConsoleAt } from './render-console-at';

jest.mock('../shared/api/staff-api');
// «Релізи» itself is tested on its own (features/releases); here it only says it was opened.
jest.mock('../features/releases/ReleasesPage', () => ({ ReleasesPage: () => <h1>Релізи</h1> }));
const get = jest.mocked(staffGet);

beforeEach(() => get.mockReset());

/** The console bar's links and buttons, in order. */
async function barOf(): Promise<string[]> {
  const nav = await screen.findByRole('navigation', { name: 'Консоль' });
  return [...nav.querySelectorAll('a, button')].map((item) => item.textContent ?? '');
}

const EVERYONE = ['Огляд', 'Заявки', 'Швидкість відповіді'];
const EDITORS = ['Статті', 'Послуги'];
const ADMINS = ['Команда', 'Журнал', 'Запити щодо даних', 'Резервні копії', 'Спам', 'Робота із заявками'];
const OWN = ['Мій обліковий запис', 'Вийти'];

describe('the console bar', () => {
  it.each<[StaffRole, string[]]>([
    ['viewer', [...EVERYONE, ...OWN]],
    ['editor', [...EVERYONE, ...EDITORS, ...OWN]],
    ['admin', [...EVERYONE, ...EDITORS, 'Релізи', ...ADMINS, ...OWN]],
    ['release_manager', ['Релізи', ...OWN]],
  ])('shows each role the pages it opens: %s', async (role, bar) => {
    renderConsoleAt(STAFF_PATHS.account, role, [], role === 'release_manager' ? ['blog'] : []);
    expect(await barOf()).toEqual(bar);
    if (bar.includes('Релізи')) expect(screen.getByRole('link', { name: 'Релізи' })).toHaveAttribute('href', STAFF_PATHS.releases);
  });
});

describe('a release manager', () => {
  const renderAt = (path: string) => renderConsoleAt(path, 'release_manager', [], ['blog', 'forms']);

  it('lands on «Релізи», not the inbox, and never asks for leads', async () => {
    renderAt(STAFF_PATHS.home);
    expect(await screen.findByRole('heading', { level: 1, name: 'Релізи' })).toBeInTheDocument();
    expect(get.mock.calls.map(([path]) => path)).toEqual(['/session']);
  });

  it('opens their own account', async () => {
    renderAt(STAFF_PATHS.account);
    expect(await screen.findByRole('heading', { level: 1, name: 'Мій обліковий запис' })).toBeInTheDocument();
  });

  it.each([STAFF_PATHS.overview, STAFF_PATHS.responseReport, `${STAFF_PATHS.home}/leads/1`, STAFF_PATHS.articles, STAFF_PATHS.team, STAFF_PATHS.audit])('is refused %s', async (path) => {
    renderAt(path);
    expect(await screen.findByText('Ваша роль не дозволяє відкрити цю сторінку.')).toBeInTheDocument();
    expect(get.mock.calls.map(([asked]) => asked)).toEqual(['/session']);
  });
});

describe('«Релізи»', () => {
  it('opens for an admin (to read)', async () => {
    renderConsoleAt(STAFF_PATHS.releases, 'admin', []);
    expect(await screen.findByRole('heading', { level: 1, name: 'Релізи' })).toBeInTheDocument();
  });

  it.each<StaffRole>(['viewer', 'editor'])('is neither linked nor opened for a reader or an editor: %s', async (role) => {
    renderConsoleAt(STAFF_PATHS.releases, role, []);
    expect(await screen.findByText('Ваша роль не дозволяє відкрити цю сторінку.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Релізи' })).toBeNull();
  });
});
