import { DASHBOARD_FIGURES, type DashboardFigures } from '@agency/shared';
import { changeText } from './overview-format';
import overview from './overview.module.css';

/** Up, down or neither, for the change's colour (its text says it in words too). */
function trendClass(current: number | null, previous: number | null): string | undefined {
  if (current === null || previous === null || previous === 0 || current === previous) return undefined;
  return current > previous ? overview.up : overview.down;
}

/** The period's figures, each beside the previous period's and how it changed. */
export function FigureCards({ totals, previous }: { totals: DashboardFigures; previous: DashboardFigures }) {
  return (
    <dl className={overview.cards}>
      {DASHBOARD_FIGURES.map(({ key, label, text }) => (
        <div key={key} className={overview.card} data-figure={key}>
          <dt>{label}</dt>
          <dd className={overview.figure}>{text(totals[key])}</dd>
          <dd>Попередній період: {text(previous[key])}</dd>
          <dd className={trendClass(totals[key], previous[key])}>{changeText(totals[key], previous[key])}</dd>
        </div>
      ))}
    </dl>
  );
}
