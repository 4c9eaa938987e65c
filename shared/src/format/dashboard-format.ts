import type { DashboardFigures } from '../contracts/dashboard';
import { STAFF_LOCALE } from '../contracts/staff-constants';

/**
 * How the owner's dashboard writes its figures, in the console («Огляд») and in the weekly
 * e-mail alike. Percents as Ukrainian typography writes them, a space before the sign.
 */

const NUMBER = new Intl.NumberFormat(STAFF_LOCALE);
const PERCENT = new Intl.NumberFormat(STAFF_LOCALE, { maximumFractionDigits: 2 });
const SHARE = new Intl.NumberFormat(STAFF_LOCALE, { maximumFractionDigits: 1 });
const CHANGE = new Intl.NumberFormat(STAFF_LOCALE, { signDisplay: 'exceptZero', maximumFractionDigits: 0 });

/** A count: «1 234». */
export const countText = (count: number) => NUMBER.format(count);

/** A conversion rate (0–1, to a hundredth of a percent): «0,36 %»; «—» without visitors. */
export const rateText = (rate: number | null) => (rate === null ? '—' : `${PERCENT.format(rate * 100)} %`);

/** A share (0–1) to a tenth of a percent: «22,5 %». */
export const shareText = (share: number) => `${SHARE.format(share * 100)} %`;

/** Seconds as people say them: «45 с», «2 хв 5 с», «1 год 3 хв». */
export function durationText(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  if (hours > 0) return minutes === 0 ? `${hours} год` : `${hours} год ${minutes} хв`;
  if (minutes > 0) return rest === 0 ? `${minutes} хв` : `${minutes} хв ${rest} с`;
  return `${rest} с`;
}

/** How a figure moved since the period before, in whole percent («+12 %», «-3 %»); undefined with nothing before to compare with. */
export function changePercentText(current: number | null, previous: number | null): string | undefined {
  if (current === null || previous === null || previous === 0) return undefined;
  return `${CHANGE.format(Math.round(((current - previous) / previous) * 100))} %`;
}

/** The figures of a period, in the order shown: a name, and how each is written. */
export const DASHBOARD_FIGURES: readonly { key: keyof DashboardFigures; label: string; text(value: number | null): string }[] = [
  { key: 'visitors', label: 'Відвідувачі', text: (value) => countText(value ?? 0) },
  { key: 'pageViews', label: 'Перегляди', text: (value) => countText(value ?? 0) },
  { key: 'secondsPerVisitor', label: 'Час на сайті', text: (value) => durationText(value ?? 0) },
  { key: 'leads', label: 'Заявки', text: (value) => countText(value ?? 0) },
  { key: 'conversionRate', label: 'Конверсія', text: rateText },
  { key: 'won', label: 'Клієнти', text: (value) => countText(value ?? 0) },
];

/** A Kyiv day (`YYYY-MM-DD`) as people write it: «25.11.2026». */
export function dayText(day: string): string {
  const [year, month, date] = day.split('-');
  return `${date}.${month}.${year}`;
}

/** The days a dashboard covers: «25.11.2026» or «19.11.2026 – 25.11.2026». */
export const daysText = (from: string, to: string) => (from === to ? dayText(from) : `${dayText(from)} – ${dayText(to)}`);
