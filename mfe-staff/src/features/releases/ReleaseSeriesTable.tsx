import type { ReleaseSeries, ReleaseSeriesLine } from '@agency/shared';
import styles from '../../shared/ui/console.module.css';
import { bucketText, msText, numberText } from './release-format';
import type { Side } from './release-sides';

const COLUMNS: { label: string; cell(line: ReleaseSeriesLine, index: number): string }[] = [
  { label: 'Перегляди', cell: (line, index) => numberText(line.pageViews[index] ?? 0) },
  { label: 'Помилки', cell: (line, index) => numberText(line.errors[index] ?? 0) },
  { label: 'Збої завантаження', cell: (line, index) => numberText(line.loadFailures[index] ?? 0) },
  { label: 'LCP, p75', cell: (line, index) => msText(line.lcpP75Ms[index] ?? null) },
  { label: 'INP, p75', cell: (line, index) => msText(line.inpP75Ms[index] ?? null) },
];

/** Whether anything was reported of these lines in a bucket. */
const reported = (lines: ReleaseSeriesLine[], index: number) =>
  lines.some((line) => (line.pageViews[index] ?? 0) + (line.errors[index] ?? 0) + (line.loadFailures[index] ?? 0) > 0 || line.lcpP75Ms[index] != null || line.inpP75Ms[index] != null);

/**
 * The compared releases over time, a row per time bucket in which browsers reported anything,
 * each cell both releases' figures in the order the caption names (a card per bucket on a phone).
 */
export function ReleaseSeriesTable({ series, sides }: { series: ReleaseSeries; sides: Side[] }) {
  // A release nothing was reported of in the window has no line of its own: zeros, so each cell keeps the caption's order.
  const none = (id: string): ReleaseSeriesLine => ({ id, pageViews: [], errors: [], loadFailures: [], lcpP75Ms: [], inpP75Ms: [], clsP75: [] });
  const lines = sides.map((side) => series.releases.find((line) => line.id === side.entry.id) ?? none(side.entry.id));
  const rows = series.buckets.map((start, index) => ({ start, index })).filter(({ index }) => reported(lines, index));
  const order = sides.map((side) => side.title.toLowerCase()).join(' / ');
  return (
    <section className={styles.panel} aria-labelledby="release-series">
      <h3 id="release-series">З часом</h3>
      <p className={styles.muted}>
        Кожен рядок — {numberText(series.bucketMinutes)} хв; у клітинці: {order}. Проміжки, за які браузери нічого не повідомили, пропущено.
      </p>
      {rows.length === 0 ? (
        <p>За цей період браузери нічого не повідомили про ці релізи.</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={`${styles.table} ${styles.stacked}`}>
            <caption className={styles.muted}>Показники з часом: {order}</caption>
            <thead>
              <tr>
                <th scope="col">Час</th>
                {COLUMNS.map((column) => (
                  <th key={column.label} scope="col">
                    {column.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map(({ start, index }) => (
                <tr key={start}>
                  <td data-label="Час">{bucketText(start, series.bucketMinutes, series.buckets.length)}</td>
                  {COLUMNS.map((column) => (
                    <td key={column.label} data-label={column.label}>
                      {lines.map((line) => column.cell(line, index)).join(' / ')}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
