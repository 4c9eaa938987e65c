import { DEVICE_CLASS_LABELS, type DashboardFilterKey, type DeviceClass } from '@agency/shared';
import styles from '../../shared/ui/console.module.css';
import overview from './overview.module.css';

/** Each filter's name, as a chip and the tables say it. */
export const FILTER_LABELS: Record<DashboardFilterKey, string> = {
  page: 'Сторінка',
  source: 'Джерело',
  campaign: 'Кампанія',
  device: 'Пристрій',
};

/** A filter's value as people read it: a device class by its name. */
export const filterValueText = (key: DashboardFilterKey, value: string) => (key === 'device' ? (DEVICE_CLASS_LABELS[value as DeviceClass] ?? value) : value);

interface FilterChipsProps {
  filters: { key: DashboardFilterKey; value: string }[];
  onRemove(key: DashboardFilterKey): void;
  onClear(): void;
}

/** The filters applied, each removable; all at once when there are several. */
export function FilterChips({ filters, onRemove, onClear }: FilterChipsProps) {
  if (filters.length === 0) return null;
  return (
    <div className={styles.row}>
      <ul className={overview.chips} aria-label="Фільтри огляду">
        {filters.map(({ key, value }) => {
          const text = `${FILTER_LABELS[key]}: ${filterValueText(key, value)}`;
          return (
            <li key={key} className={overview.chip}>
              {text}
              <button type="button" className={overview.chipRemove} aria-label={`Прибрати фільтр «${text}»`} onClick={() => onRemove(key)}>
                <span aria-hidden="true">×</span>
              </button>
            </li>
          );
        })}
      </ul>
      {filters.length > 1 && (
        <button type="button" className={styles.link} onClick={onClear}>
          Прибрати всі фільтри
        </button>
      )}
    </div>
  );
}
