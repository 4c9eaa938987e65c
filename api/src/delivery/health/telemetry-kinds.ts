/** The kind of telemetry_minutes rows that count page views (the others: an error kind or a vital's name). */
export const PAGE_VIEW_KIND = 'page_view';

/** The kind of telemetry_minutes rows that count a release's failed server renders (this server's own report). */
export const RENDER_FAILURE_KIND = 'render_failure';

/**
 * The kind of telemetry_minutes rows that count the pages the server sent browsers' navigations,
 * per app release on the page (its own count, which no browser can add to).
 */
export const SERVED_PAGE_KIND = 'served_page';

/** The evidence telemetry_clients counts distinct clients of, while a canary judges a release. */
export { CLIENT_EVIDENCE, type ClientEvidence } from '@agency/shared';
