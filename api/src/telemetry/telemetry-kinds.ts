/** The kind of telemetry_minutes rows that count page views (the others: an error kind or a vital's name). */
export const PAGE_VIEW_KIND = 'page_view';

/** The kind of telemetry_minutes rows that count a release's failed server renders (this server's own report). */
export const RENDER_FAILURE_KIND = 'render_failure';

const MS_PER_MINUTE = 60_000;

/** Whole minutes since the Unix epoch: how telemetry rows say when. */
export function toMinute(timeMs: number): number {
  return Math.floor(timeMs / MS_PER_MINUTE);
}
