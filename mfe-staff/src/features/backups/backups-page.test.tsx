import { render, screen, within } from '@testing-library/react';
import { STAFF_PATHS, type BackupOverview, type StaffSession } from '@agency/shared';
import { renderConsoleAt } from '../../app/render-console-at';
import { staffGet } from '../../shared/api/staff-api';
import { apiAnswered } from '../../shared/api/__mocks__/staff-api';
import { BackupsPage } from './BackupsPage';

jest.mock('../../shared/api/staff-api');
const get = jest.mocked(staffGet);

const MIB = 1024 * 1024;
const STATUS: NonNullable<BackupOverview['status']> = {
  store: 's3://agency-backups/khvylia',
  kind: 'sqlite-snapshot',
  intervalMs: 5 * 60_000,
  verifyIntervalMs: 24 * 3_600_000,
  count: 3,
  totalBytes: 4.5 * MIB,
  newest: { id: 'b3', takenAt: '2026-12-01T10:00:00.000Z', ageSeconds: 12 * 60 + 5, bytes: 1.5 * MIB, reason: 'manual', durationMs: 120 },
  newestVerified: { id: 'b1', takenAt: '2026-11-30T09:00:00.000Z', ageSeconds: 25 * 3_600, verifiedAt: '2026-11-30T09:01:00.000Z' },
};

function renderPage(overview: BackupOverview) {
  get.mockResolvedValue(overview as never);
  render(<BackupsPage />);
}

/** The facts of a section: each term with its description. */
function factsOf(heading: string): Record<string, string> {
  const section = screen.getByRole('region', { name: heading });
  const terms = within(section).getAllByRole('term');
  return Object.fromEntries(terms.map((term) => [term.textContent, term.nextElementSibling?.textContent ?? '']));
}

beforeEach(() => get.mockReset());

describe('the backups page', () => {
  it('shows the newest backup, the newest proven one and what the store keeps, in Ukrainian', async () => {
    renderPage({ enabled: true, status: STATUS, alerts: [] });
    expect(await screen.findByText('Усе гаразд: резервні копії свіжі, перевірка відновлення проходить.')).toHaveAttribute('role', 'status');
    expect(get).toHaveBeenCalledWith('/backups');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(factsOf('Остання копія')).toEqual({ Зроблено: expect.stringMatching(/^12 хвилин тому \(01\.12\.(20)?26, 12:00\)$/), Розмір: '1,5 МіБ', Причина: 'вручну' });
    expect(factsOf('Остання перевірена копія')).toMatchObject({ Зроблено: expect.stringMatching(/^25 годин тому /), Перевірена: expect.stringMatching(/^30\.11\.(20)?26, 11:01$/) });
    expect(factsOf('Сховище')).toEqual({
      Де: 's3://agency-backups/khvylia',
      Що: 'знімки бази SQLite',
      Зберігається: '3 копії, разом 4,5 МіБ',
      Розклад: 'повна копія раз на 5 хвилин, перевірка відновлення раз на 24 години',
    });
  });

  it('warns, in words, of every alert', async () => {
    renderPage({
      enabled: true,
      status: { ...STATUS, newest: { ...STATUS.newest!, ageSeconds: 3 * 3_600, reason: 'shutdown' }, failure: { at: '2026-12-01T13:00:00.000Z', what: 'verify', message: 'row counts differ' } },
      alerts: ['backup_stale', 'verify_failed'],
    });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Увага' })).toBeInTheDocument();
    expect(within(alert).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Остання резервна копія старша за 10 хвилин: нові копії не робляться.',
      expect.stringMatching(/^Перевірка відновлення не вдалася: row counts differ \(01\.12\.(20)?26, 15:00\)$/),
    ]);
    expect(factsOf('Остання копія')).toMatchObject({ Зроблено: expect.stringMatching(/^3 години тому /), Причина: 'під час зупинки' });
    expect(screen.queryByText(/Усе гаразд/)).toBeNull();
  });

  it('says when there is no backup yet, nor a proven one', async () => {
    renderPage({ enabled: true, status: { ...STATUS, kind: 'postgres-base', count: 0, totalBytes: 0, newest: undefined, newestVerified: undefined }, alerts: ['backup_stale', 'verify_stale'] });
    expect((await screen.findByRole('alert')).textContent).toContain('Жодної резервної копії ще немає.');
    expect(screen.getByRole('alert')).toHaveTextContent('Перевірка відновлення ще не пройшла жодного разу');
    expect(screen.getByText('Жодну копію ще не перевірено.')).toBeInTheDocument();
    expect(factsOf('Сховище')).toMatchObject({ Що: 'базові копії PostgreSQL та архів журналу (WAL) між ними', Зберігається: '0 копій, разом 0 Б' });
  });

  it('says so when backups are off', async () => {
    renderPage({ enabled: false, alerts: [] });
    expect(await screen.findByText(/^Резервне копіювання вимкнено \(BACKUP_STORE=off\)/)).toBeInTheDocument();
    expect(screen.queryByRole('region')).toBeNull();
  });

  it('shows the API’s message when the store cannot be read', async () => {
    get.mockRejectedValue(apiAnswered(503, { error: { code: 'BACKUP_STORE_UNAVAILABLE', message: 'Сховище резервних копій не відповідає' } }));
    render(<BackupsPage />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Сховище резервних копій не відповідає');
  });
});

describe('the console’s backups page', () => {
  const renderConsole = (role: StaffSession['member']['role']) => renderConsoleAt(STAFF_PATHS.backups, role, { enabled: false, alerts: [] });

  it('is linked for admins', async () => {
    renderConsole('admin');
    expect(await screen.findByRole('heading', { level: 1, name: 'Резервні копії' })).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Консоль' })).getByRole('link', { name: 'Резервні копії' })).toHaveAttribute('href', STAFF_PATHS.backups);
  });

  it('is neither linked nor shown for an editor', async () => {
    renderConsole('editor');
    expect(await screen.findByText('Ваша роль не дозволяє відкрити цю сторінку.')).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Консоль' })).queryByRole('link', { name: 'Резервні копії' })).toBeNull();
    expect(get).not.toHaveBeenCalledWith('/backups');
  });
});
