/** The kind of telemetry_minutes rows that count page views (the others: an error kind or a vital's name). */
export const PAGE_VIEW_KIND = 'page_view';

const MS_PER_MINUTE = 60_000;

/** Whole minutes since the Unix epoch: how telemetry rows say when. */
export function toMinute(timeMs: number): number {
  return Math.floor(timeMs / MS_PER_MINUTE);
}
