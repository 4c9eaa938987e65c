import { render, screen, within } from '@testing-library/react';
import { STAFF_PATHS, type ResponseReport } from '@agency/shared';
import { renderConsoleAt } from '../../app/render-console-at';
import { fetchResponseReport } from '../../shared/api/staff-api';
import { apiAnswered } from '../../shared/api/__mocks__/staff-api';
import { ResponseReportPage } from './ResponseReportPage';

jest.mock('../../shared/api/staff-api');
const fetchReport = jest.mocked(fetchResponseReport);

const REPORT: ResponseReport = {
  targetMinutes: 120,
  weeks: [
    // Mondays 00:00 in Kyiv (UTC+2).
    { weekStart: '2026-11-22T22:00:00.000Z', leads: 4, answered: 3, medianMinutes: 45, p90Minutes: 185, overdue: 1 },
    { weekStart: '2026-11-15T22:00:00.000Z', leads: 0, answered: 0, medianMinutes: null, p90Minutes: null, overdue: 0 },
  ],
  people: [{ member: 'editor@khvylia.example', leads: 3, answered: 3, medianMinutes: 60, p90Minutes: 120 }],
  sources: [
    { source: 'google', leads: 3, won: 1 },
    { source: '', leads: 1, won: 0 },
  ],
};

/** Each body row of the table named `caption`, as its cells' texts. */
const rowsOf = (caption: string) =>
  within(screen.getByRole('table', { name: caption }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));
const headersOf = (caption: string) => within(screen.getByRole('table', { name: caption })).getAllByRole('columnheader').map((cell) => cell.textContent);

beforeEach(() => jest.resetAllMocks());

describe('the response report', () => {
  it('shows the target and each week’s times in working time, «—» where no lead got a response', async () => {
    fetchReport.mockResolvedValue(REPORT);
    render(<ResponseReportPage />);
    expect(await screen.findByText(/^Ціль: перша відповідь протягом 2 год робочого часу\./)).toBeInTheDocument();
    expect(fetchReport).toHaveBeenCalledWith();
    expect(headersOf('За тижнями')).toEqual(['Тиждень з', 'Заявок', 'З відповіддю', 'Медіана', '90-й процентиль', 'Прострочено']);
    expect(rowsOf('За тижнями')).toEqual([
      [expect.stringMatching(/^23\.11\.(20)?26$/), '4', '3', '45 хв', '3 год 5 хв', '1'],
      [expect.stringMatching(/^16\.11\.(20)?26$/), '0', '0', '—', '—', '0'],
    ]);
  });

  it('shows who answered first, and the leads by source with how many were won', async () => {
    fetchReport.mockResolvedValue(REPORT);
    render(<ResponseReportPage />);
    expect(await screen.findByRole('table', { name: 'Хто відповідав першим' })).toBeInTheDocument();
    expect(rowsOf('Хто відповідав першим')).toEqual([['editor@khvylia.example', '3', '3', '1 год', '2 год']]);
    expect(headersOf('Заявки за джерелами')).toEqual(['Джерело', 'Заявок', 'Успішних', 'Конверсія']);
    expect(rowsOf('Заявки за джерелами')).toEqual([
      ['google', '3', '1', '33,3%'],
      ['(без джерела)', '1', '0', '0%'],
    ]);
  });

  it('says so when nobody answered and no lead came', async () => {
    fetchReport.mockResolvedValue({ ...REPORT, weeks: [REPORT.weeks[1]!], people: [], sources: [] });
    render(<ResponseReportPage />);
    expect(await screen.findByText('Відповідей за цей час ще не було.')).toBeInTheDocument();
    expect(screen.getByText('Заявок за цей час не було.')).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Хто відповідав першим' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Заявки за джерелами' })).toBeInTheDocument();
  });

  it('shows the API’s message when the report cannot be read', async () => {
    fetchReport.mockRejectedValue(apiAnswered(503, { error: { code: 'UNAVAILABLE', message: 'Сервер тимчасово недоступний' } }));
    render(<ResponseReportPage />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Сервер тимчасово недоступний');
    expect(screen.queryByRole('table')).toBeNull();
  });
});

describe('the console’s response report', () => {
  it('is linked and shown for every role', async () => {
    fetchReport.mockResolvedValue(REPORT);
    renderConsoleAt(STAFF_PATHS.responseReport, 'viewer', undefined);
    expect(await screen.findByRole('heading', { level: 1, name: 'Швидкість відповіді' })).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Консоль' })).getByRole('link', { name: 'Швидкість відповіді' })).toHaveAttribute('href', STAFF_PATHS.responseReport);
    expect(await screen.findByRole('table', { name: 'За тижнями' })).toBeInTheDocument();
  });
});
