import { BRAND } from '../constants/brand';
import { kyivDayOf, kyivInstant, kyivWeekday, nextKyivDay, type KyivDay } from './kyiv-calendar';

/**
 * The agency's working hours as the site shows them (Monday to Friday, 09:00–18:00 in Kyiv), and
 * time counted in them: how long a lead waited for its first answer, and by when it is due.
 */

const minutesOf = (time: string) => {
  const [hours, minutes] = time.split(':').map(Number);
  return hours! * 60 + minutes!;
};

export const WORKING_HOURS = {
  /** Monday (1) to Friday (5). */
  weekdays: [1, 2, 3, 4, 5] as readonly number[],
  opensMinute: minutesOf(BRAND.weekdayHours.opens),
  closesMinute: minutesOf(BRAND.weekdayHours.closes),
};

/** The day's working window as instants, or undefined on a day off. */
function windowOf(day: KyivDay): [number, number] | undefined {
  if (!WORKING_HOURS.weekdays.includes(kyivWeekday(day))) return undefined;
  return [kyivInstant(day, WORKING_HOURS.opensMinute), kyivInstant(day, WORKING_HOURS.closesMinute)];
}

/** Working time between two instants, in ms: evenings, nights and weekends do not count. */
export function workingMsBetween(start: Date, end: Date): number {
  const from = start.getTime();
  const to = end.getTime();
  if (!(to > from)) return 0;
  let total = 0;
  const last = kyivDayOf(to);
  for (let day = kyivDayOf(from); ; day = nextKyivDay(day)) {
    const window = windowOf(day);
    if (window) total += Math.max(0, Math.min(to, window[1]) - Math.max(from, window[0]));
    if (day.year === last.year && day.month === last.month && day.date === last.date) return total;
  }
}

/** The instant `ms` of working time after `start` ends: when something due in that much working time is due. */
export function addWorkingMs(start: Date, ms: number): Date {
  let left = Math.max(0, ms);
  const from = start.getTime();
  for (let day = kyivDayOf(from); ; day = nextKyivDay(day)) {
    const window = windowOf(day);
    if (!window || window[1] <= from) continue;
    const begin = Math.max(from, window[0]);
    if (left <= window[1] - begin) return new Date(begin + left);
    left -= window[1] - begin;
  }
}

/** Working minutes as staff read them: «45 хв», «2 год», «2 год 5 хв». */
export function formatWorkingMinutes(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = Math.round(minutes % 60);
  if (hours === 0) return `${rest} хв`;
  return rest === 0 ? `${hours} год` : `${hours} год ${rest} хв`;
}
