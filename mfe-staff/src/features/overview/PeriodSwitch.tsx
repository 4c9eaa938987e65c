import { useEffect, useState, type FormEvent } from 'react';
import { DASHBOARD_PERIOD_LABELS, DASHBOARD_PERIODS, kyivDayOf, SITE_ANALYTICS_LIMITS, type DashboardPeriod } from '@agency/shared';
import styles from '../../shared/ui/console.module.css';
import { ErrorAlert } from '../../shared/ui/ErrorAlert';
import overview from './overview.module.css';

const DAY_MS = 86_400_000;
const { rangeDaysMax } = SITE_ANALYTICS_LIMITS;

/** Today in Kyiv, as a date input's value. */
function kyivToday(): string {
  const { year, month, date } = kyivDayOf(Date.now());
  return `${year}-${String(month + 1).padStart(2, '0')}-${String(date).padStart(2, '0')}`;
}

/** Days from `from` to `to`, both counted. */
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

interface PeriodSwitchProps {
  period: DashboardPeriod;
  /** The days shown now: what a range starts from. */
  from: string;
  to: string;
  onPeriod(period: Exclude<DashboardPeriod, 'range'>): void;
  onRange(range: { from: string; to: string }): void;
}

/**
 * Today, 7 or 30 days at a press; «Період» opens two Kyiv days to choose (up to
 * SITE_ANALYTICS_LIMITS.rangeDaysMax), shown when «Показати» is pressed.
 */
export function PeriodSwitch({ period, from, to, onPeriod, onRange }: PeriodSwitchProps) {
  const [choosing, setChoosing] = useState(false);
  const [draft, setDraft] = useState({ from, to });
  const [error, setError] = useState('');
  const rangeOpen = choosing || period === 'range';
  // The days shown change as the address does (a new period, back and forward).
  useEffect(() => setDraft({ from, to }), [from, to]);
  const today = kyivToday();

  const press = (next: DashboardPeriod) => {
    setError('');
    if (next === 'range') {
      setDraft({ from, to });
      setChoosing(true);
    } else {
      setChoosing(false);
      onPeriod(next);
    }
  };

  const show = (event: FormEvent) => {
    event.preventDefault();
    if (draft.from > draft.to) return setError('Перший день періоду має бути не пізніше за останній.');
    if (daysBetween(draft.from, draft.to) > rangeDaysMax) return setError(`Період може тривати щонайбільше ${rangeDaysMax} днів.`);
    setError('');
    onRange(draft);
  };

  return (
    <div className={`${styles.panel} ${styles.stack}`}>
      <div className={overview.periods} role="group" aria-label="Період">
        {DASHBOARD_PERIODS.map((each) => {
          const pressed = each === 'range' ? rangeOpen : !rangeOpen && each === period;
          return (
            <button key={each} type="button" className={`${styles.secondary} ${pressed ? overview.pressed : ''}`} aria-pressed={pressed} onClick={() => press(each)}>
              {DASHBOARD_PERIOD_LABELS[each]}
            </button>
          );
        })}
      </div>
      {rangeOpen && (
        <form className={styles.row} onSubmit={show} aria-label="Дні періоду">
          <label className={styles.field}>
            З дня
            <input type="date" required value={draft.from} max={draft.to || today} onChange={(event) => setDraft({ ...draft, from: event.target.value })} />
          </label>
          <label className={styles.field}>
            До дня
            <input type="date" required value={draft.to} min={draft.from || undefined} max={today} onChange={(event) => setDraft({ ...draft, to: event.target.value })} />
          </label>
          <button type="submit" className={styles.button}>
            Показати
          </button>
        </form>
      )}
      <ErrorAlert error={error} />
    </div>
  );
}
