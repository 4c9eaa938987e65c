import { STAFF_LOCALE, STAFF_TIME_ZONE, type StaffRelease } from '@agency/shared';

/** The windows «Релізи» offers for an app's health, as the API's `since` takes them. */
export const HEALTH_WINDOWS = [
  { since: '1h', label: '1 година' },
  { since: '6h', label: '6 годин' },
  { since: '24h', label: '24 години' },
  { since: '7d', label: '7 днів' },
] as const;
export type HealthWindow = (typeof HEALTH_WINDOWS)[number]['since'];
export const DEFAULT_WINDOW: HealthWindow = '1h';

export function isHealthWindow(value: string | null): value is HealthWindow {
  return HEALTH_WINDOWS.some((window) => window.since === value);
}

/** A release as people tell it apart: its version and git revision (the id says when it was built too). */
export function releaseLabel(release: Pick<StaffRelease, 'version' | 'revision'>): string {
  return `${release.version} · ${release.revision}`;
}

/** Who made a decision, in words: a person of the console, a team's token, the command line, or the site itself. */
export function actorText(actor: string): string {
  const [kind = '', ...rest] = actor.split(':');
  const who = rest.join(':');
  if (actor === 'site') return 'сайт (за станом релізу)';
  if (actor === 'import') return 'імпорт старих релізів';
  if (kind === 'staff') return `${who} (консоль)`;
  if (kind === 'token') return `токен ${who}`;
  if (kind === 'cli') return `командний рядок (${who})`;
  return actor;
}

const NUMBER = new Intl.NumberFormat(STAFF_LOCALE);

/** A count in Ukrainian digits' grouping. */
export const numberText = (value: number) => NUMBER.format(value);

/** Milliseconds of a vital, or a dash when no browser reported it. */
export const msText = (value: number | null) => (value === null ? '–' : `${NUMBER.format(value)} мс`);

/** CLS's score, or a dash. */
export const scoreText = (value: number | null) => (value === null ? '–' : NUMBER.format(value));

/** Errors per page view as a percentage, or a dash without page views. */
export const rateText = (rate: number | null) => (rate === null ? '–' : `${NUMBER.format(Math.round(rate * 1000) / 10)} %`);

/** A share of visitors. */
export const shareText = (share: number) => `${NUMBER.format(share)} %`;

const TIME = new Intl.DateTimeFormat(STAFF_LOCALE, { timeZone: STAFF_TIME_ZONE, hour: '2-digit', minute: '2-digit' });
const DAY_TIME = new Intl.DateTimeFormat(STAFF_LOCALE, { timeZone: STAFF_TIME_ZONE, day: '2-digit', month: '2-digit', hour: '2-digit', minute: '2-digit' });

/** A time bucket's start in Kyiv: the time alone within a day's window, with the day for longer ones. */
export function bucketText(iso: string, bucketMinutes: number, buckets: number): string {
  return (bucketMinutes * buckets <= 24 * 60 ? TIME : DAY_TIME).format(new Date(iso));
}

/** A canary's rules in words (as the release command's event says them, in Ukrainian). */
export function rulesText(candidate: { share: number; minViews: number; promoteAfter: number | null }): string {
  const promotion = candidate.promoteAfter === null ? 'поточним його робить людина' : `поточним стає сам після ${numberText(candidate.promoteAfter)} здорових переглядів`;
  return `${shareText(candidate.share)} відвідувачів, оцінюється після ${numberText(candidate.minViews)} переглядів, ${promotion}`;
}
