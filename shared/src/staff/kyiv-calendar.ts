import { STAFF_TIME_ZONE } from '../contracts/staff-constants';

/**
 * The agency lives on Kyiv's calendar; the database stores UTC. Conversions between the two,
 * summer time included, with the offset of each UTC day remembered (it changes twice a year).
 */
const PARTS = new Intl.DateTimeFormat('en-US', {
  timeZone: STAFF_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

const HOUR_MS = 3_600_000;
const offsets = new Map<number, number>();

/** How far Kyiv's wall clock is ahead of UTC at `instant`, in ms. */
export function kyivOffsetMs(instant: number): number {
  // Offsets change on the hour: one lookup per UTC hour.
  const hour = Math.floor(instant / HOUR_MS);
  const known = offsets.get(hour);
  if (known !== undefined) return known;
  const parts = Object.fromEntries(PARTS.formatToParts(new Date(hour * HOUR_MS)).map((part) => [part.type, part.value]));
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  const offset = wall - hour * HOUR_MS;
  if (offsets.size > 100_000) offsets.clear();
  offsets.set(hour, offset);
  return offset;
}

/** A Kyiv calendar day, as `Date.UTC` counts its fields (month from 0). */
export interface KyivDay {
  year: number;
  month: number;
  date: number;
}

/** The Kyiv day `instant` falls on. */
export function kyivDayOf(instant: number): KyivDay {
  const wall = new Date(instant + kyivOffsetMs(instant));
  return { year: wall.getUTCFullYear(), month: wall.getUTCMonth(), date: wall.getUTCDate() };
}

/** The day after (or `days` after) `day`. */
export function nextKyivDay(day: KyivDay, days = 1): KyivDay {
  const wall = new Date(Date.UTC(day.year, day.month, day.date + days));
  return { year: wall.getUTCFullYear(), month: wall.getUTCMonth(), date: wall.getUTCDate() };
}

/** 0 Sunday … 6 Saturday. */
export function kyivWeekday(day: KyivDay): number {
  return new Date(Date.UTC(day.year, day.month, day.date)).getUTCDay();
}

/** The instant Kyiv's clock shows `minutes` past midnight of `day`. */
export function kyivInstant(day: KyivDay, minutes = 0): number {
  const wall = Date.UTC(day.year, day.month, day.date) + minutes * 60_000;
  // Near a change of summer time the first guess used the other offset: once more settles it.
  const guess = wall - kyivOffsetMs(wall);
  return wall - kyivOffsetMs(guess);
}

/** `YYYY-MM-DD` (a Kyiv day) → the ISO instant it begins; `plusDays` moves the day first. */
export function kyivDayStart(day: string, plusDays = 0): string {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(kyivInstant(nextKyivDay({ year: year!, month: month! - 1, date: date! }, plusDays))).toISOString();
}

/** A Kyiv day as `YYYY-MM-DD`. */
export function kyivDayText({ year, month, date }: KyivDay): string {
  return `${String(year).padStart(4, '0')}-${String(month + 1).padStart(2, '0')}-${String(date).padStart(2, '0')}`;
}

/** `YYYY-MM-DD` as a Kyiv day; undefined for text that is not a real date. */
export function parseKyivDay(text: string): KyivDay | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return undefined;
  const day = { year: Number(match[1]), month: Number(match[2]) - 1, date: Number(match[3]) };
  return kyivDayText(nextKyivDay(day, 0)) === text ? day : undefined;
}
