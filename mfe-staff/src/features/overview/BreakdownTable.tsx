import { countText, rateText, type DashboardFilterKey, type DashboardRow } from '@agency/shared';
import styles from '../../shared/ui/console.module.css';
import overview from './overview.module.css';

interface BreakdownTableProps {
  /** The table's heading, and its id (what names the table and its scrolling region). */
  title: string;
  id: string;
  /** The first column's heading: what a row is. */
  nameColumn: string;
  rows: DashboardRow[];
  /** What a click on a row's name filters by. */
  filterKey: DashboardFilterKey;
  /** The value that filter has now, if any. */
  active: string | undefined;
  /** A row's name as shown (its label by default). */
  nameOf?(row: DashboardRow): string;
  /** Sets the filter to a row's key, or removes it (`undefined`: its row pressed again). */
  onFilter(key: DashboardFilterKey, value: string | undefined): void;
}

const COLUMNS = ['Відвідувачі', 'Перегляди', 'Заявки', 'Конверсія', 'Клієнти'] as const;

/**
 * One breakdown of the period (pages, posts, sources, campaigns, devices): a row each, its name a
 * toggle button that filters the whole dashboard by it, pressed while it does (pressed again, it
 * removes the filter). A row without a key (visits with no source) filters nothing: plain text.
 */
export function BreakdownTable({ title, id, nameColumn, rows, filterKey, active, nameOf = (row) => row.label, onFilter }: BreakdownTableProps) {
  if (rows.length === 0) {
    return (
      <section className={styles.panel} aria-labelledby={id}>
        <h2 id={id}>{title}</h2>
        <p className={styles.muted}>За цей період даних немає.</p>
      </section>
    );
  }
  return (
    // The scrolling region is the landmark named by the heading; the section is not another.
    <section className={styles.panel}>
      {/* The heading stays in view while a phone scrolls the table sideways. */}
      <h2 id={id}>{title}</h2>
      <div className={styles.tableWrap} role="region" aria-labelledby={id} tabIndex={0}>
        <table className={`${styles.table} ${overview.wide}`} aria-labelledby={id}>
          <thead>
            <tr>
              <th scope="col">{nameColumn}</th>
              {COLUMNS.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const name = nameOf(row);
              const pressed = row.key !== '' && row.key === active;
              return (
                <tr key={row.key} className={pressed ? overview.activeRow : undefined}>
                  <td>
                    {row.key === '' ? (
                      name
                    ) : (
                      <button type="button" className={`${styles.link} ${overview.rowName}`} aria-pressed={pressed} onClick={() => onFilter(filterKey, pressed ? undefined : row.key)}>
                        {name}
                      </button>
                    )}
                  </td>
                  <td>{countText(row.visitors)}</td>
                  <td>{countText(row.pageViews)}</td>
                  <td>{countText(row.leads)}</td>
                  <td>{rateText(row.conversionRate)}</td>
                  <td>{countText(row.won)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
