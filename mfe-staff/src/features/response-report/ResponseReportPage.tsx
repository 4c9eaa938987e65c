import { useEffect, useState, type ReactNode } from 'react';
import { formatWorkingMinutes, STAFF_LOCALE, type ResponseReport } from '@agency/shared';
import { fetchResponseReport, messageOf } from '../../shared/api/staff-api';
import styles from '../../shared/ui/console.module.css';
import { ErrorAlert } from '../../shared/ui/ErrorAlert';
import { kyivDate } from '../../shared/ui/kyiv-time';
import { useDocumentTitle } from '../../shared/ui/use-document-title';

const PERCENT = new Intl.NumberFormat(STAFF_LOCALE, { style: 'percent', maximumFractionDigits: 1 });

/** A time to first response, or «—» when no lead of the group got one. */
const minutesText = (minutes: number | null) => (minutes === null ? '—' : formatWorkingMinutes(minutes));
/** The share of leads won, or «—» without leads. */
const conversionText = (won: number, leads: number) => (leads === 0 ? '—' : PERCENT.format(won / leads));

/** The report's times of a group: how many leads, how many got a response, how fast. */
const TIME_COLUMNS = ['Заявок', 'З відповіддю', 'Медіана', '90-й процентиль'] as const;
function TimeCells({ group }: { group: { leads: number; answered: number; medianMinutes: number | null; p90Minutes: number | null } }) {
  return (
    <>
      <td>{group.leads}</td>
      <td>{group.answered}</td>
      <td>{minutesText(group.medianMinutes)}</td>
      <td>{minutesText(group.p90Minutes)}</td>
    </>
  );
}

function ReportTable({ caption, columns, children }: { caption: string; columns: readonly string[]; children: ReactNode }) {
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <caption>
          <h2>{caption}</h2>
        </caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/**
 * `/staff/report` (everyone): how fast the agency answers. Time to first response in working
 * time (Monday to Friday, office hours in Kyiv) by week and by the member who answered, the
 * leads left overdue, and the period's leads by source with how many the agency won. Spam is
 * left out.
 */
export function ResponseReportPage() {
  useDocumentTitle('Швидкість відповіді');
  const [report, setReport] = useState<ResponseReport | undefined>(undefined);
  const [error, setError] = useState('');

  useEffect(() => {
    fetchResponseReport().then(setReport, (failure: unknown) => setError(messageOf(failure)));
  }, []);

  return (
    <div className={styles.stack}>
      <h1>Швидкість відповіді</h1>
      <ErrorAlert error={error} />
      {!report && !error && <p role="status">Завантаження…</p>}
      {report && (
        <>
          <p>
            Ціль: перша відповідь протягом {formatWorkingMinutes(report.targetMinutes)} робочого часу. Час рахується лише в робочі години; медіана —
            половина заявок отримала відповідь швидше, 90-й процентиль — девʼять із десяти. Спам не враховано.
          </p>
          <section className={styles.panel}>
            <ReportTable caption="За тижнями" columns={['Тиждень з', ...TIME_COLUMNS, 'Прострочено']}>
              {report.weeks.map((week) => (
                <tr key={week.weekStart}>
                  <th scope="row">{kyivDate(week.weekStart)}</th>
                  <TimeCells group={week} />
                  <td>{week.overdue}</td>
                </tr>
              ))}
            </ReportTable>
          </section>
          <section className={styles.panel}>
            {report.people.length === 0 ? (
              <>
                <h2>Хто відповідав першим</h2>
                <p className={styles.muted}>Відповідей за цей час ще не було.</p>
              </>
            ) : (
              <ReportTable caption="Хто відповідав першим" columns={['Учасник', ...TIME_COLUMNS]}>
                {report.people.map((person) => (
                  <tr key={person.member}>
                    <th scope="row">{person.member}</th>
                    <TimeCells group={person} />
                  </tr>
                ))}
              </ReportTable>
            )}
          </section>
          <section className={styles.panel}>
            {report.sources.length === 0 ? (
              <>
                <h2>Заявки за джерелами</h2>
                <p className={styles.muted}>Заявок за цей час не було.</p>
              </>
            ) : (
              <ReportTable caption="Заявки за джерелами" columns={['Джерело', 'Заявок', 'Успішних', 'Конверсія']}>
                {report.sources.map((source) => (
                  <tr key={source.source}>
                    <th scope="row">{source.source || '(без джерела)'}</th>
                    <td>{source.leads}</td>
                    <td>{source.won}</td>
                    <td>{conversionText(source.won, source.leads)}</td>
                  </tr>
                ))}
              </ReportTable>
            )}
          </section>
        </>
      )}
    </div>
  );
}
