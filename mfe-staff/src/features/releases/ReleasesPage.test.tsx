import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STAFF_PATHS, type ReleaseHealth, type StaffRelease, type StaffReleaseApp, type StaffReleaseDetail, type StaffReleases } from '@agency/shared';
import { MemoryRouter, Route, Routes, useLocation } from '@agency/shared/router';
import { staffGet, staffSend } from '../../shared/api/staff-api';
import { apiAnswered } from '../../shared/api/__mocks__/staff-api';
import { ReleasesPage } from './ReleasesPage';

jest.mock('../../shared/api/staff-api');
const get = jest.mocked(staffGet);
const send = jest.mocked(staffSend);

const release = (id: string, publishedBy = 'token:ci-blog'): StaffRelease => ({
  id,
  version: id.split('-')[0]!,
  revision: id.split('-')[1]!,
  builtAt: '2026-12-01T08:00:00.000Z',
  publishedAt: '2026-12-01T08:05:00.000Z',
  publishedBy,
});

const CURRENT = release('1.4.0-aaaa111-20261201T080000Z');
const PREVIOUS = release('1.3.0-bbbb222-20261130T080000Z');
const CANDIDATE = release('1.5.0-cccc333-20261202T080000Z');
const STAGED = release('1.6.0-dddd444-20261203T080000Z');

const BLOG: StaffReleaseApp = {
  app: 'blog',
  remote: true,
  revision: 7,
  current: CURRENT,
  previous: PREVIOUS,
  candidate: { id: CANDIDATE.id, share: 10, minViews: 100, promoteAfter: null, since: '2026-12-02T09:00:00.000Z', release: CANDIDATE },
  staged: [STAGED],
  kept: [],
};
const SHELL: StaffReleaseApp = { app: 'shell', remote: false, revision: 0, current: null, previous: null, candidate: null, staged: [], kept: [] };

function health(id: string, fields: Partial<ReleaseHealth> = {}): ReleaseHealth {
  return {
    id,
    current: false,
    page_views: 0,
    served_page_views: 0,
    judged_page_views: 0,
    clients: { served: 0, error: 0, load_failure: 0, vitals: 0 },
    errors: 0,
    error_rate: null,
    load_failures: 0,
    load_retries: 0,
    render_failures: 0,
    vitals_samples: { lcp: 0, inp: 0 },
    vitals: { lcp_p75_ms: null, inp_p75_ms: null, cls_p75: null, fcp_p75_ms: null, ttfb_p75_ms: null },
    top_errors: [],
    ...fields,
  };
}

const BROKEN = health(CANDIDATE.id, {
  page_views: 20,
  errors: 12,
  error_rate: 0.6,
  load_failures: 2,
  judged_page_views: 18,
  clients: { served: 9, error: 6, load_failure: 1, vitals: 3 },
  vitals: { lcp_p75_ms: 2400, inp_p75_ms: null, cls_p75: null, fcp_p75_ms: null, ttfb_p75_ms: null },
  top_errors: [{ message: 'TypeError: posts is undefined', kind: 'boundary', page: '/blog', count: 12, source: 'mfe-blog/src/features/blog-listing/BlogListing.tsx:31:7' }],
});
const HEALTHY = health(CURRENT.id, {
  current: true,
  page_views: 180,
  errors: 1,
  error_rate: 0.0056,
  judged_page_views: 160,
  clients: { served: 40, error: 1, load_failure: 0, vitals: 30 },
  vitals: { lcp_p75_ms: 1900, inp_p75_ms: 80, cls_p75: 0.02, fcp_p75_ms: null, ttfb_p75_ms: null },
  top_errors: [{ message: 'rare old bug', kind: 'uncaught', page: '/', count: 1, source: null }],
});

function detail(state: StaffReleaseApp = BLOG, mayAct = false): StaffReleaseDetail {
  return {
    state,
    mayAct,
    status: {
      app: 'blog',
      since: '2026-12-02T09:00:00.000Z',
      releases: [
        { ...BROKEN, candidate: true, share: 10 },
        { ...HEALTHY, candidate: false },
        { ...health(PREVIOUS.id), candidate: false },
      ],
      canary: {
        release: CANDIDATE.id,
        share: 10,
        min_views: 100,
        promote_after: null,
        since: '2026-12-02T09:00:00.000Z',
        verdict: { action: 'roll_back', reason: 'errors from 6 of 9 clients (66.7 %) over 18 page views, against 2.5 % of the current release’s 40 clients' },
      },
      events: [
        { at: '2026-12-01T08:05:00.000Z', release: CURRENT.id, action: 'published', reason: 'published from an upload by ci-blog and made current', actor: 'token:ci-blog' },
        { at: '2026-12-02T09:00:00.000Z', release: CANDIDATE.id, action: 'canary', reason: '10 % of visitors, judged after 100 page views, promoted by hand', actor: 'staff:rm@khvylia.example' },
      ],
    },
    series: {
      bucketMinutes: 10,
      buckets: ['2026-12-02T09:00:00.000Z', '2026-12-02T09:10:00.000Z', '2026-12-02T09:20:00.000Z'],
      releases: [
        { id: CANDIDATE.id, pageViews: [0, 5, 15], errors: [0, 3, 9], loadFailures: [0, 0, 2], lcpP75Ms: [null, 2300, 2500], inpP75Ms: [null, null, null], clsP75: [null, null, null] },
        { id: CURRENT.id, pageViews: [0, 60, 120], errors: [0, 0, 1], loadFailures: [0, 0, 0], lcpP75Ms: [null, 1900, 1900], inpP75Ms: [null, 80, 80], clsP75: [null, null, null] },
      ],
    },
    evidence: { candidate: BROKEN, current: HEALTHY },
  };
}

function Address() {
  const { search } = useLocation();
  return <div data-testid="address">{search}</div>;
}

function renderPage(search: string, answers: { overview?: StaffReleases; detail?: StaffReleaseDetail } = {}) {
  const overview = answers.overview ?? { apps: [SHELL, BLOG], mayAct: [] };
  get.mockImplementation(async (path: string) => (path === '/releases' ? overview : path === '/releases/blog' ? (answers.detail ?? detail()) : undefined) as never);
  render(
    <MemoryRouter initialEntries={[`${STAFF_PATHS.releases}${search}`]}>
      <Routes>
        <Route path={STAFF_PATHS.releases} element={<ReleasesPage />} />
      </Routes>
      <Address />
    </MemoryRouter>,
  );
}

const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent?.replace(/\s+/g, ' ').trim()));

beforeEach(() => jest.clearAllMocks());

describe('«Релізи»', () => {
  it('lists every app with its current, previous, candidate and staged releases, and says admins only read', async () => {
    renderPage('');
    const table = within(await screen.findByRole('region', { name: 'Застосунки' })).getByRole('table');
    expect(rowsOf(table)).toEqual([
      ['shell', 'збірка з теки dist', '—', '—', '—', 'Стан і дії'],
      [
        'blog',
        `${CURRENT.id} 1.4.0 · aaaa111`,
        `${PREVIOUS.id} 1.3.0 · bbbb222`,
        `${CANDIDATE.id} 1.5.0 · cccc333 10 % відвідувачів`,
        `${STAGED.id} 1.6.0 · dddd444`,
        'Стан і дії',
      ],
    ]);
    expect(screen.getByText('Ви бачите релізи всіх застосунків, але не змінюєте їх: це роблять менеджери релізів.')).toBeInTheDocument();
    expect(get).toHaveBeenCalledWith('/releases');

    await userEvent.click(screen.getByRole('link', { name: 'Стан і дії: blog' }));
    expect(screen.getByTestId('address')).toHaveTextContent('?app=blog');
    expect(await screen.findByRole('heading', { name: 'Застосунок blog' })).toBeInTheDocument();
    expect(get).toHaveBeenCalledWith('/releases/blog', { since: '1h' });
  });

  it("shows a broken candidate's errors beside the current release's, over time, with the site's decision and the history", async () => {
    renderPage('?app=blog&since=6h');
    const compare = await screen.findByRole('region', { name: 'Поруч: за 6 годин' });
    expect(get).toHaveBeenCalledWith('/releases/blog', { since: '6h' });
    expect(within(compare).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Показник', `Кандидат (10 %)${CANDIDATE.id}`, `Поточний${CURRENT.id}`]);
    expect(rowsOf(within(compare).getByRole('table')).slice(0, 4)).toEqual([
      ['Перегляди сторінок', '20', '180'],
      ['Помилки на сторінці', '12', '1'],
      ['Помилок на перегляд', '60 %', '0,6 %'],
      ['Збої завантаження', '2', '0'],
    ]);

    const errors = screen.getByRole('region', { name: 'Найчастіші помилки' });
    const candidateErrors = within(errors).getByRole('region', { name: 'Помилки: Кандидат (10 %)' });
    expect(candidateErrors).toHaveTextContent('12× TypeError: posts is undefined');
    expect(candidateErrors).toHaveTextContent('у mfe-blog/src/features/blog-listing/BlogListing.tsx:31:7');
    expect(within(errors).getByRole('region', { name: 'Помилки: Поточний' })).toHaveTextContent('1× rare old bug');

    const canary = screen.getByRole('region', { name: 'Канарка' });
    expect(canary).toHaveTextContent('Сайт відкотить кандидата');
    expect(canary).toHaveTextContent('errors from 6 of 9 clients');
    expect(canary).toHaveTextContent('10 % відвідувачів, оцінюється після 100 переглядів, поточним його робить людина');
    expect(rowsOf(within(canary).getByRole('table', { name: 'Докази з початку канарки' }))[2]).toEqual(['Клієнтів, що повідомили про помилки', '6', '1']);

    // Over time: buckets nothing was reported in are left out; each cell the candidate's, then the current's.
    const series = within(screen.getByRole('region', { name: 'З часом' })).getByRole('table');
    expect(rowsOf(series)).toEqual([
      ['11:10', '5 / 60', '3 / 0', '0 / 0', '2 300 мс / 1 900 мс', '– / 80 мс'],
      ['11:20', '15 / 120', '9 / 1', '2 / 0', '2 500 мс / 1 900 мс', '– / 80 мс'],
    ]);

    const history = within(screen.getByRole('region', { name: 'Історія рішень' })).getByRole('table');
    expect(rowsOf(history).map((cells) => cells.slice(1))).toEqual([
      [CANDIDATE.id, 'канарка', 'rm@khvylia.example (консоль)', '10 % of visitors, judged after 100 page views, promoted by hand'],
      [CURRENT.id, 'опубліковано', 'токен ci-blog', 'published from an upload by ci-blog and made current'],
    ]);

    // An admin (mayAct false) gets no action.
    expect(screen.queryByRole('button', { name: 'Зробити кандидата поточним' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Дії з релізами blog' })).toBeNull();
    expect(screen.getByText(/^Змінювати релізи blog може лише менеджер релізів/)).toBeInTheDocument();
  });

  it('compares the current release with the previous one when no canary runs', async () => {
    const calm = detail({ ...BLOG, candidate: null });
    calm.status = { ...calm.status, canary: null, releases: calm.status.releases.filter((entry) => !entry.candidate) };
    calm.evidence = null;
    renderPage('?app=blog', { detail: calm });
    const compare = await screen.findByRole('region', { name: 'Поруч: за 1 година' });
    expect(within(compare).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Показник', `Поточний${CURRENT.id}`, `Попередній${PREVIOUS.id}`]);
    expect(screen.queryByRole('region', { name: 'Канарка' })).toBeNull();
  });

  it('changes the window in the address', async () => {
    renderPage('?app=blog');
    await userEvent.click(await screen.findByRole('button', { name: '7 днів' }));
    expect(screen.getByTestId('address')).toHaveTextContent('?app=blog&since=7d');
    expect(await screen.findByRole('button', { name: '7 днів' })).toHaveAttribute('aria-pressed', 'true');
    expect(get).toHaveBeenLastCalledWith('/releases/blog', { since: '7d' });
  });

  it('gives a release manager the actions, and reads everything again after a change', async () => {
    renderPage('?app=blog', { overview: { apps: [SHELL, BLOG], mayAct: ['blog'] }, detail: detail(BLOG, true) });
    const actions = await screen.findByRole('region', { name: 'Дії з релізами blog' });
    const promoted: StaffReleaseApp = { ...BLOG, revision: 8, current: CANDIDATE, previous: CURRENT, candidate: null };
    send.mockResolvedValue({ state: promoted, done: 'promoted' } as never);
    const asked = get.mock.calls.length;

    await userEvent.click(within(actions).getByRole('button', { name: 'Зробити кандидата поточним' }));
    const dialog = screen.getByRole('dialog', { name: 'Зробити кандидата поточним?' });
    expect(dialog).toHaveAccessibleDescription(`Реліз ${CANDIDATE.id} отримуватимуть усі відвідувачі blog; зараз поточний — ${CURRENT.id}, до нього можна буде відкотитися.`);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Зробити поточним' }));

    expect(send).toHaveBeenCalledWith('post', '/releases/blog/promote', { expect: { revision: 7 } });
    expect(await screen.findByText(`${CANDIDATE.id} тепер поточний.`)).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('dialog')).toBeNull();
    // The overview and the app's health, read again.
    expect(get.mock.calls.slice(asked).map(([path]) => path).sort()).toEqual(['/releases', '/releases/blog']);
  });

  it("shows the API's own message when the state moved on, and reads it again", async () => {
    renderPage('?app=blog', { overview: { apps: [SHELL, BLOG], mayAct: ['blog'] }, detail: detail(BLOG, true) });
    const actions = await screen.findByRole('region', { name: 'Дії з релізами blog' });
    const message = `blog's releases changed (aborted ${CANDIDATE.id} by cli:ops@host at 2026-12-02T09:30:00.000Z). Nothing was changed; run the command again.`;
    send.mockRejectedValue(apiAnswered(409, { error: { code: 'CONCURRENT_CHANGE', message } }));
    const asked = get.mock.calls.length;

    await userEvent.click(within(actions).getByRole('button', { name: 'Скасувати канарку' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Скасувати канарку?' })).getByRole('button', { name: 'Скасувати канарку' }));

    expect(send).toHaveBeenCalledWith('post', '/releases/blog/abort', { expect: { revision: 7 } });
    expect(await within(actions).findByRole('alert')).toHaveTextContent(message);
    expect(get.mock.calls.slice(asked).map(([path]) => path).sort()).toEqual(['/releases', '/releases/blog']);
  });
});
