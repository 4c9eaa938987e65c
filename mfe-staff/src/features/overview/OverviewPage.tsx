import { useMemo } from 'react';
import { daysText, DEVICE_CLASS_LABELS, type Dashboard, type DashboardFilterKey, type DashboardRow, type DeviceClass } from '@agency/shared';
import { useLocation, useNavigate } from '@agency/shared/router';
import { fetchDashboard } from '../../shared/api/staff-api';
import { useLoaded } from '../../shared/api/use-loaded';
import { useStaffSession } from '../../shared/session/staff-session';
import styles from '../../shared/ui/console.module.css';
import { ErrorAlert } from '../../shared/ui/ErrorAlert';
import { useDocumentTitle } from '../../shared/ui/use-document-title';
import { BreakdownTable } from './BreakdownTable';
import { FigureCards } from './FigureCards';
import { FilterChips } from './FilterChips';
import { FormFunnels } from './FormFunnels';
import { activeFilters, queryFromSearch, searchFromQuery, withFilter, withoutFilters, withPeriod, type OverviewQuery } from './overview-query';
import overview from './overview.module.css';
import { PeriodSwitch } from './PeriodSwitch';
import { VisitsChart } from './VisitsChart';
import { WeeklyReportSetting } from './WeeklyReportSetting';

/** Whether the period saw nothing at all: no visit, no lead. */
const nothingIn = ({ totals }: Dashboard) => totals.visitors === 0 && totals.pageViews === 0 && totals.leads === 0 && totals.won === 0;

const deviceName = (row: DashboardRow) => DEVICE_CLASS_LABELS[row.key as DeviceClass] ?? row.label;
const sourceName = (row: DashboardRow) => row.label || '(без джерела)';
const campaignName = (row: DashboardRow) => row.label || '(без кампанії)';

/**
 * `/staff/overview` (everyone): the owner's dashboard. Visitors, page views, time on the site,
 * leads, conversion and won clients of a period beside the period before; visits over time; the
 * period's pages, blog posts, sources, campaigns and devices, each row a filter for the whole
 * screen; each form's funnel. The period and the filters live in the address, so a view reloads
 * and can be shared. Admins turn their weekly e-mail of it on or off here.
 */
export function OverviewPage() {
  useDocumentTitle('Огляд');
  const { session, may } = useStaffSession();
  const location = useLocation();
  const navigate = useNavigate();
  const query = useMemo(() => queryFromSearch(location.search), [location.search]);
  // A slower answer to an earlier address never replaces the one asked for last.
  const { data: dashboard, loading, error, reload } = useLoaded(() => fetchDashboard(query), JSON.stringify(query));

  const go = (next: OverviewQuery) => navigate({ search: searchFromQuery(next) });
  const filter = (key: DashboardFilterKey, value: string | undefined) => go(withFilter(query, key, value));
  const filters = activeFilters(query);
  const shown = error ? undefined : dashboard;

  return (
    <div className={styles.stack}>
      <h1>Огляд</h1>
      <PeriodSwitch
        period={query.period}
        from={dashboard?.from ?? query.from ?? ''}
        to={dashboard?.to ?? query.to ?? ''}
        onPeriod={(period) => go(withPeriod(query, period))}
        onRange={(range) => go(withPeriod(query, 'range', range))}
      />
      <FilterChips filters={filters} onRemove={(key) => filter(key, undefined)} onClear={() => go(withoutFilters(query))} />
      {loading && <p role="status">Завантаження…</p>}
      {error && (
        <div className={styles.row}>
          <ErrorAlert error={error} />
          <button type="button" className={styles.secondary} onClick={reload}>
            Спробувати ще раз
          </button>
        </div>
      )}
      {shown && (
        <div className={`${styles.stack} ${loading ? overview.busy : ''}`} aria-busy={loading}>
          <section aria-labelledby="overview-figures">
            <h2 id="overview-figures">Показники</h2>
            <p className={styles.muted}>
              {daysText(shown.from, shown.to)} порівняно з {daysText(shown.previousFrom, shown.previousTo)}
            </p>
            <FigureCards totals={shown.totals} previous={shown.previous} />
          </section>
          {nothingIn(shown) ? (
            <p className={styles.panel}>
              {filters.length > 0 ? 'За цей період із цими фільтрами відвідувань і заявок не було.' : 'За цей період відвідувань і заявок не було.'} Спробуйте інший
              період{filters.length > 0 ? ' або приберіть фільтри' : ''}.
            </p>
          ) : (
            <>
              <VisitsChart series={shown.series} grain={shown.seriesGrain} days={daysText(shown.from, shown.to)} />
              <p className={styles.muted}>Натисніть назву в таблиці, щоб побачити весь огляд лише для неї.</p>
              <BreakdownTable title="Сторінки" id="overview-pages" nameColumn="Сторінка" rows={shown.pages} filterKey="page" active={query.page} onFilter={filter} />
              <BreakdownTable title="Статті блогу" id="overview-posts" nameColumn="Стаття" rows={shown.posts} filterKey="page" active={query.page} onFilter={filter} />
              <BreakdownTable title="Джерела" id="overview-sources" nameColumn="Джерело" rows={shown.sources} filterKey="source" active={query.source} nameOf={sourceName} onFilter={filter} />
              <BreakdownTable title="Кампанії" id="overview-campaigns" nameColumn="Кампанія" rows={shown.campaigns} filterKey="campaign" active={query.campaign} nameOf={campaignName} onFilter={filter} />
              <BreakdownTable title="Пристрої" id="overview-devices" nameColumn="Пристрій" rows={shown.devices} filterKey="device" active={query.device} nameOf={deviceName} onFilter={filter} />
              <FormFunnels funnels={shown.funnels} />
            </>
          )}
          {may('admin') && session && <WeeklyReportSetting weeklyReport={shown.weeklyReport} email={session.member.email} />}
        </div>
      )}
    </div>
  );
}
