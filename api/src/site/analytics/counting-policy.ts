import type { IncomingHttpHeaders } from 'node:http';
import { isbot } from 'isbot';

/**
 * Whose page views the dashboard leaves out, judged from the beacon's request: bots and crawlers
 * by their user agent (isbot's list, which headless browsers are on), browsers that ask not to be
 * tracked (Do-Not-Track, Global Privacy Control) and pages a browser only prefetched or
 * prerendered. The shell sends no analytics in those cases either; the server does not trust it.
 */

export const NOT_COUNTED_REASONS = ['bot', 'do_not_track', 'global_privacy_control', 'prefetch'] as const;
export type NotCountedReason = (typeof NOT_COUNTED_REASONS)[number];

const header = (headers: IncomingHttpHeaders, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : (value ?? '');
};

/** Why a request's page views are not counted; undefined when they are. */
export function notCounted(headers: IncomingHttpHeaders): NotCountedReason | undefined {
  const userAgent = header(headers, 'user-agent');
  if (userAgent === '' || isbot(userAgent)) return 'bot';
  if (header(headers, 'dnt').trim() === '1') return 'do_not_track';
  if (header(headers, 'sec-gpc').trim() === '1') return 'global_privacy_control';
  if (/prefetch|prerender/i.test(`${header(headers, 'sec-purpose')} ${header(headers, 'purpose')} ${header(headers, 'x-moz')}`)) return 'prefetch';
  return undefined;
}
