import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STAFF_PATHS, type Dashboard, type StaffRole, type StaffSession } from '@agency/shared';
import { MemoryRouter, Route, Routes, useLocation } from '@agency/shared/router';
import { renderConsoleAt } from '../../app/render-console-at';
import { fetchDashboard, saveWeeklyReport, staffGet } from '../../shared/api/staff-api';
import { apiAnswered } from '../../shared/api/__mocks__/staff-api';
import { StaffSessionProvider } from '../../shared/session/staff-session';
import { drawVisitsChart } from './draw-visits-chart';
import { OverviewPage } from './OverviewPage';

jest.mock('../../shared/api/staff-api');
// jsdom draws no canvas: the chunk with uPlot is replaced, the chart's words and table stay real.
jest.mock('./draw-visits-chart', () => ({ drawVisitsChart: jest.fn(() => () => undefined) }));
const fetchOverview = jest.mocked(fetchDashboard);
const saveWeekly = jest.mocked(saveWeeklyReport);
const draw = jest.mocked(drawVisitsChart);

const row = (key: string, visitors: number, more: Partial<Dashboard['pages'][number]> = {}) => ({
  key,
  label: key,
  visitors,
  pageViews: visitors * 2,
  leads: 1,
  conversionRate: 1 / visitors,
  won: 0,
  ...more,
});

/** A week of Kyiv days (UTC+2: each starts at 22:00 UTC the day before). */
const DASHBOARD: Dashboard = {
  period: '7d',
  from: '2026-11-24',
  to: '2026-11-30',
  previousFrom: '2026-11-17',
  previousTo: '2026-11-23',
  filters: {},
  totals: { visitors: 1232, pageViews: 3000, secondsPerVisitor: 125, leads: 10, conversionRate: 0.0081, won: 2 },
  previous: { visitors: 1100, pageViews: 3000, secondsPerVisitor: 100, leads: 0, conversionRate: null, won: 4 },
  seriesGrain: 'day',
  series: Array.from({ length: 7 }, (_, index) => ({
    start: `2026-11-${String(23 + index).padStart(2, '0')}T22:00:00.000Z`,
    visitors: index === 2 ? 400 : 100,
    pageViews: 300,
    leads: 1,
    won: 0,
  })),
  pages: [row('/', 800), row('/services', 300)],
  posts: [row('/blog/seo-2026', 120, { label: 'SEO у 2026 році' })],
  sources: [row('instagram', 500), row('', 400, { conversionRate: null })],
  campaigns: [],
  devices: [row('mobile', 700, { label: 'mobile' }), row('desktop', 532, { label: 'desktop' })],
  funnels: [
    { form: 'contact', seen: 400, started: 100, sent: 10, won: 2 },
    { form: 'applications', seen: 0, started: 0, sent: 0, won: 0 },
  ],
  weeklyReport: false,
};

const sessionOf = (role: StaffRole): StaffSession => ({ member: { id: 1, email: `${role}@khvylia.example`, role, releaseApps: [] }, csrfToken: 't', passkeys: 1, totp: false, recoveryCodesLeft: 10 });

/** The address the page is at now, as the router holds it. */
function Address() {
  const { search } = useLocation();
  return <div data-testid="address">{search}</div>;
}

function renderOverview(search = '', role: StaffRole = 'viewer', dashboard: Dashboard = DASHBOARD) {
  jest.mocked(staffGet).mockImplementation(async (path: string) => (path === '/session' ? sessionOf(role) : undefined) as never);
  fetchOverview.mockResolvedValue(dashboard);
  render(
    <MemoryRouter initialEntries={[`${STAFF_PATHS.overview}${search}`]}>
      <StaffSessionProvider>
        <Routes>
          <Route path={STAFF_PATHS.overview} element={<OverviewPage />} />
        </Routes>
        <Address />
      </StaffSessionProvider>
    </MemoryRouter>,
  );
}

const address = () => screen.getByTestId('address').textContent;
/** The card of a figure: its name, value, the previous period's and the change. */
const cardOf = (name: string) => screen.getByText(name, { selector: 'dt' }).closest('div')!;
const cardTexts = (name: string) => [...cardOf(name).querySelectorAll('dt, dd')].map((part) => part.textContent?.replace(/\s/g, ' '));
const rowsOf = (table: string) =>
  within(screen.getByRole('table', { name: table }))
    .getAllByRole('row')
    .slice(1)
    .map((each) => [...each.querySelectorAll('th, td')].map((cell) => cell.textContent?.replace(/\s/g, ' ')));

beforeEach(() => jest.clearAllMocks());

describe('the overview', () => {
  it('shows each figure beside the previous period’s, and how it changed', async () => {
    renderOverview();
    expect(await screen.findByText('24.11.2026 – 30.11.2026 порівняно з 17.11.2026 – 23.11.2026')).toBeInTheDocument();
    expect(fetchOverview).toHaveBeenCalledWith({ period: '7d' });
    expect(cardTexts('Відвідувачі')).toEqual(['Відвідувачі', '1 232', 'Попередній період: 1 100', '+12 % до попереднього періоду']);
    expect(cardTexts('Перегляди')).toEqual(['Перегляди', '3 000', 'Попередній період: 3 000', 'Без змін']);
    expect(cardTexts('Час на сайті')).toEqual(['Час на сайті', '2 хв 5 с', 'Попередній період: 1 хв 40 с', '+25 % до попереднього періоду']);
    expect(cardTexts('Заявки')).toEqual(['Заявки', '10', 'Попередній період: 0', '—']);
    expect(cardTexts('Конверсія')).toEqual(['Конверсія', '0,81 %', 'Попередній період: —', '—']);
    expect(cardTexts('Клієнти')).toEqual(['Клієнти', '2', 'Попередній період: 4', '-50 % до попереднього періоду']);
  });

  it('draws the visits by day, says what the chart shows, and lists its numbers', async () => {
    renderOverview();
    const chart = await screen.findByRole('img', { name: /^Графік за днями, 24\.11\.2026 – 30\.11\.2026\. Відвідувачі: 1\s000, перегляди: 2\s100, заявки: 7\./ });
    expect(chart).toHaveAccessibleName(expect.stringMatching(/Найбільше відвідувачів 26\.11\.(20)?26: 400\.$/));
    await screen.findByRole('heading', { name: 'Відвідування за днями' });
    expect(draw).toHaveBeenCalledTimes(1);
    const [target, data, text] = draw.mock.calls[0]!;
    expect(target).toBe(chart);
    expect(data.instants).toEqual(DASHBOARD.series.map((point) => Date.parse(point.start)));
    expect(data.visitors).toEqual([100, 100, 400, 100, 100, 100, 100]);
    expect(text.tick(Date.parse('2026-11-25T22:00:00.000Z'))).toBe('26.11');
    expect(rowsOf('Відвідування за днями, 24.11.2026 – 30.11.2026')[2]).toEqual([expect.stringMatching(/^26\.11\.(20)?26$/), '400', '300', '1']);
  });

  it('labels a single day’s chart by Kyiv hours', async () => {
    const hours = [0, 1].map((hour) => ({ start: `2026-11-29T${String(22 + hour).padStart(2, '0')}:00:00.000Z`, visitors: 3, pageViews: 4, leads: 0, won: 0 }));
    renderOverview('?period=today', 'viewer', { ...DASHBOARD, period: 'today', from: '2026-11-30', to: '2026-11-30', seriesGrain: 'hour', series: hours });
    expect(await screen.findByRole('heading', { name: 'Відвідування за годинами' })).toBeInTheDocument();
    expect(fetchOverview).toHaveBeenCalledWith({ period: 'today' });
    expect(rowsOf('Відвідування за годинами, 30.11.2026').map((cells) => cells[0])).toEqual(['00:00', '01:00']);
    expect(draw.mock.calls[0]![2].tick(Date.parse(hours[1]!.start))).toBe('01:00');
  });

  it('shows the period’s tables, a device by its name and a source left empty as such', async () => {
    renderOverview();
    expect(await screen.findByRole('table', { name: 'Джерела' })).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Джерела' })).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Джерело',
      'Відвідувачі',
      'Перегляди',
      'Заявки',
      'Конверсія',
      'Клієнти',
    ]);
    expect(rowsOf('Джерела')).toEqual([
      ['instagram', '500', '1 000', '1', '0,2 %', '0'],
      ['(без джерела)', '400', '800', '1', '—', '0'],
    ]);
    expect(rowsOf('Пристрої').map((cells) => cells[0])).toEqual(['Телефон', 'Компʼютер']);
    expect(rowsOf('Статті блогу').map((cells) => cells[0])).toEqual(['SEO у 2026 році']);
    expect(screen.getByRole('heading', { name: 'Кампанії' })).toBeInTheDocument();
    expect(screen.getByText('За цей період даних немає.')).toBeInTheDocument();
    // A row without a key filters nothing: plain text, no button.
    expect(within(screen.getByRole('table', { name: 'Джерела' })).getAllByRole('button').map((button) => button.textContent)).toEqual(['instagram']);
  });

  it('shows each form’s funnel, step by step, as shares of those who saw the form', async () => {
    renderOverview();
    const table = await screen.findByRole('table', { name: 'Звернення' });
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Показник', 'Бачили форму', 'Почали заповнювати', 'Надіслали', 'Клієнти']);
    expect(rowsOf('Звернення')).toEqual([
      ['Кількість', '400', '100', '10', '2'],
      ['Від тих, хто бачив', '100 %', '25 %', '2,5 %', '0,5 %'],
    ]);
    expect(rowsOf('Відгук на вакансію')[1]).toEqual(['Від тих, хто бачив', '—', '—', '—', '—']);
  });

  it('filters the whole screen by a source clicked, in the address, and clears it by its chip', async () => {
    renderOverview('?period=30d');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'instagram' }));
    expect(address()).toBe('?period=30d&source=instagram');
    expect(fetchOverview).toHaveBeenLastCalledWith({ period: '30d', source: 'instagram' });
    const chips = screen.getByRole('list', { name: 'Фільтри огляду' });
    expect(within(chips).getByRole('listitem')).toHaveTextContent('Джерело: instagram');
    // The row filtered by says so: its button is pressed.
    expect(screen.getByRole('button', { name: 'instagram', pressed: true })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Телефон', pressed: false })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Телефон' }));
    expect(address()).toBe('?period=30d&source=instagram&device=mobile');
    expect(fetchOverview).toHaveBeenLastCalledWith({ period: '30d', source: 'instagram', device: 'mobile' });
    expect(within(chips).getAllByRole('listitem').map((chip) => chip.textContent)).toEqual(['Джерело: instagram×', 'Пристрій: Телефон×']);

    await user.click(screen.getByRole('button', { name: 'Прибрати фільтр «Джерело: instagram»' }));
    expect(address()).toBe('?period=30d&device=mobile');
    expect(fetchOverview).toHaveBeenLastCalledWith({ period: '30d', device: 'mobile' });
    expect(screen.queryByRole('button', { name: /Джерело/ })).toBeNull();

    // A pressed row, pressed again, removes its filter.
    await user.click(screen.getByRole('button', { name: 'Телефон', pressed: true }));
    expect(address()).toBe('?period=30d');
    expect(fetchOverview).toHaveBeenLastCalledWith({ period: '30d' });
    expect(screen.queryByRole('list', { name: 'Фільтри огляду' })).toBeNull();
  });

  it('filters by a post’s page, and drops every filter at once', async () => {
    renderOverview('?source=instagram&campaign=black-friday');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'SEO у 2026 році' }));
    expect(address()).toBe('?page=%2Fblog%2Fseo-2026&source=instagram&campaign=black-friday');
    expect(screen.getByRole('button', { name: 'Прибрати фільтр «Сторінка: /blog/seo-2026»' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Прибрати всі фільтри' }));
    expect(address()).toBe('');
    expect(fetchOverview).toHaveBeenLastCalledWith({ period: '7d' });
    expect(screen.queryByRole('list', { name: 'Фільтри огляду' })).toBeNull();
  });

  it('switches the period in the address, filters kept, and takes a range of days', async () => {
    renderOverview('?source=instagram');
    const user = userEvent.setup({ delay: null });
    const periods = await screen.findByRole('group', { name: 'Період' });
    expect(within(periods).getByRole('button', { name: '7 днів' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(periods).getByRole('button', { name: 'Сьогодні' }));
    expect(address()).toBe('?period=today&source=instagram');
    expect(fetchOverview).toHaveBeenLastCalledWith({ period: 'today', source: 'instagram' });

    await user.click(within(periods).getByRole('button', { name: 'Період' }));
    expect(within(periods).getByRole('button', { name: 'Період' })).toHaveAttribute('aria-pressed', 'true');
    const from = screen.getByLabelText('З дня');
    const to = screen.getByLabelText('До дня');
    await user.clear(from);
    await user.type(from, '2024-01-01');
    await user.clear(to);
    await user.type(to, '2025-06-01');
    await user.click(screen.getByRole('button', { name: 'Показати' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Період може тривати щонайбільше 400 днів.');
    expect(address()).toBe('?period=today&source=instagram');
    await user.clear(from);
    await user.type(from, '2025-05-20');
    await user.click(screen.getByRole('button', { name: 'Показати' }));
    expect(address()).toBe('?period=range&from=2025-05-20&to=2025-06-01&source=instagram');
    expect(fetchOverview).toHaveBeenLastCalledWith({ period: 'range', from: '2025-05-20', to: '2025-06-01', source: 'instagram' });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says when the period saw nothing, and offers to drop the filters', async () => {
    const none = { visitors: 0, pageViews: 0, secondsPerVisitor: 0, leads: 0, conversionRate: null, won: 0 };
    renderOverview('?device=tablet', 'viewer', { ...DASHBOARD, totals: none, series: [], pages: [], posts: [], sources: [], devices: [], funnels: [] });
    expect(await screen.findByText(/^За цей період із цими фільтрами відвідувань і заявок не було\. Спробуйте інший період або приберіть фільтри\.$/)).toBeInTheDocument();
    expect(cardTexts('Відвідувачі')).toEqual(['Відвідувачі', '0', 'Попередній період: 1 100', '-100 % до попереднього періоду']);
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows the API’s message when the overview cannot be read, and reads it again on request', async () => {
    fetchOverview.mockRejectedValueOnce(apiAnswered(503, { error: { code: 'UNAVAILABLE', message: 'Сервер тимчасово недоступний' } }));
    renderOverview();
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByRole('alert')).toHaveTextContent('Сервер тимчасово недоступний');
    expect(screen.queryByRole('table')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Спробувати ще раз' }));
    expect(await screen.findByRole('table', { name: 'Джерела' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(fetchOverview).toHaveBeenCalledTimes(2);
  });
});

describe('the weekly report', () => {
  it('is not offered to editors', async () => {
    renderOverview('', 'editor');
    expect(await screen.findByRole('table', { name: 'Джерела' })).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Щотижневий звіт' })).toBeNull();
  });

  it('is an admin’s choice, saved as it is ticked', async () => {
    renderOverview('', 'admin');
    saveWeekly.mockResolvedValue(undefined);
    const user = userEvent.setup({ delay: null });
    const box = await screen.findByRole('checkbox', { name: 'Надсилати мені щотижневий звіт (понеділок, 09:00)' });
    expect(box).not.toBeChecked();
    expect(box).toHaveAccessibleDescription('Головне за минулий тиждень листом на admin@khvylia.example, щопонеділка о 09:00 за Києвом.');
    await user.click(box);
    expect(saveWeekly).toHaveBeenCalledWith({ weeklyReport: true });
    expect(await screen.findByRole('status')).toHaveTextContent('Збережено. Звіт надходитиме щопонеділка.');
    expect(box).toBeChecked();
  });

  it('stays as it was when the save is refused', async () => {
    renderOverview('', 'admin', { ...DASHBOARD, weeklyReport: true });
    saveWeekly.mockRejectedValue(apiAnswered(403, { error: { code: 'FORBIDDEN', message: 'Ваша роль не дозволяє цього' } }));
    const user = userEvent.setup({ delay: null });
    const box = await screen.findByRole('checkbox', { name: /щотижневий звіт/ });
    expect(box).toBeChecked();
    await user.click(box);
    expect(saveWeekly).toHaveBeenCalledWith({ weeklyReport: false });
    expect(await screen.findByRole('alert')).toHaveTextContent('Ваша роль не дозволяє цього');
    expect(box).toBeChecked();
  });
});

describe('the console’s overview', () => {
  it('is linked first and shown for every role', async () => {
    fetchOverview.mockResolvedValue(DASHBOARD);
    renderConsoleAt(STAFF_PATHS.overview, 'viewer', undefined);
    expect(await screen.findByRole('heading', { level: 1, name: 'Огляд' })).toBeInTheDocument();
    const links = within(screen.getByRole('navigation', { name: 'Консоль' })).getAllByRole('link');
    expect(links[0]).toHaveTextContent('Огляд');
    expect(links[0]).toHaveAttribute('href', STAFF_PATHS.overview);
    expect(await screen.findByRole('table', { name: 'Джерела' })).toBeInTheDocument();
  });
});
