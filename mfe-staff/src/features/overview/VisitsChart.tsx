import { useEffect, useMemo, useRef, useState } from 'react';
import { countText, type Dashboard, type RollupGrain } from '@agency/shared';
import styles from '../../shared/ui/console.module.css';
import { pointLabel, pointRowLabel, SERIES_WORDS } from './overview-format';
import overview from './overview.module.css';

type Point = Dashboard['series'][number];

const SERIES = [
  { key: 'visitors', label: 'Відвідувачі', line: overview.lineVisitors },
  { key: 'pageViews', label: 'Перегляди', line: overview.linePageViews },
  { key: 'leads', label: 'Заявки', line: overview.lineLeads },
] as const;

/** What the chart shows, in words: its totals and its busiest point, for those who cannot see it. */
function summaryOf(series: Point[], grain: RollupGrain, days: string): string {
  const total = (key: 'visitors' | 'pageViews' | 'leads') => series.reduce((sum, point) => sum + point[key], 0);
  const busiest = series.reduce<Point | undefined>((best, point) => (!best || point.visitors > best.visitors ? point : best), undefined);
  const when = busiest && `${grain === 'hour' ? 'о ' : ''}${pointRowLabel(Date.parse(busiest.start), grain)}`;
  const peak = busiest && busiest.visitors > 0 ? ` Найбільше відвідувачів ${when}: ${countText(busiest.visitors)}.` : '';
  return `Графік ${SERIES_WORDS[grain].by}, ${days}. Відвідувачі: ${countText(total('visitors'))}, перегляди: ${countText(total('pageViews'))}, заявки: ${countText(total('leads'))}.${peak}`;
}

interface VisitsChartProps {
  series: Point[];
  /** One Kyiv day, per hour; else per day. */
  grain: RollupGrain;
  /** The days shown, in words («19.11.2026 – 25.11.2026»). */
  days: string;
}

/**
 * Visitors, page views and leads over the period, drawn by uPlot, which is fetched (with its
 * stylesheet) only as the chart first shows. The drawing is an image with a summary for screen
 * readers; the numbers it is drawn from are in a table beside it, for everyone.
 */
export function VisitsChart({ series, grain, days }: VisitsChartProps) {
  const target = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const [pointed, setPointed] = useState<number | null>(null);
  const summary = useMemo(() => summaryOf(series, grain, days), [series, grain, days]);

  useEffect(() => {
    const element = target.current;
    if (!element) return;
    let remove: (() => void) | undefined;
    let shown = true;
    setFailed(false);
    setPointed(null);
    import(/* webpackChunkName: "visits-chart" */ './draw-visits-chart').then(
      ({ drawVisitsChart }) => {
        if (!shown) return;
        remove = drawVisitsChart(
          element,
          {
            instants: series.map((point) => Date.parse(point.start)),
            visitors: series.map((point) => point.visitors),
            pageViews: series.map((point) => point.pageViews),
            leads: series.map((point) => point.leads),
          },
          {
            visitors: 'Відвідувачі',
            pageViews: 'Перегляди',
            leads: 'Заявки',
            tick: (instant) => pointLabel(instant, grain),
            count: countText,
            onPoint: setPointed,
          },
        );
      },
      () => {
        if (shown) setFailed(true);
      },
    );
    return () => {
      shown = false;
      remove?.();
    };
  }, [series, grain]);

  const point = pointed === null ? undefined : series[pointed];

  return (
    <section className={`${styles.panel} ${styles.stack}`} aria-labelledby="overview-chart">
      <h2 id="overview-chart">Відвідування {SERIES_WORDS[grain].by}</h2>
      <ul className={overview.legend}>
        {SERIES.map((line) => (
          <li key={line.key}>
            <span className={`${overview.swatch} ${line.line}`} aria-hidden="true" />
            {line.label}
            {line.key === 'leads' && <span className={styles.muted}> (права шкала)</span>}
          </li>
        ))}
      </ul>
      <div ref={target} role="img" aria-label={summary} className={overview.chart} />
      {failed ? (
        <p className={styles.error}>Не вдалося завантажити графік. Числа, з яких його побудовано, — у таблиці нижче.</p>
      ) : (
        <p className={styles.muted}>
          {point
            ? `${pointRowLabel(Date.parse(point.start), grain)}: відвідувачі ${countText(point.visitors)}, перегляди ${countText(point.pageViews)}, заявки ${countText(point.leads)}`
            : 'Наведіть на графік, щоб побачити числа.'}
        </p>
      )}
      <details>
        <summary>Числа графіка</summary>
        <div className={styles.tableWrap} role="region" aria-labelledby="overview-chart-numbers" tabIndex={0}>
          <table className={styles.table}>
            <caption id="overview-chart-numbers" className={overview.caption}>Відвідування {SERIES_WORDS[grain].by}, {days}</caption>
            <thead>
              <tr>
                <th scope="col">{SERIES_WORDS[grain].column}</th>
                {SERIES.map((line) => (
                  <th key={line.key} scope="col">
                    {line.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {series.map((each) => (
                <tr key={each.start}>
                  <th scope="row">{pointRowLabel(Date.parse(each.start), grain)}</th>
                  {SERIES.map((line) => (
                    <td key={line.key}>{countText(each[line.key])}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}
