import {
  ATTRIBUTION_VALUE_MAX,
  CAMPAIGN_PARAMS,
  randomId,
  readSessionAttribution,
  writeSessionAttribution,
  type Attribution,
} from '@agency/shared';

/**
 * Where this browser session's visit came from, read once per page load from its address and
 * referrer and kept in sessionStorage (see @agency/shared's session-attribution): the forms send
 * it with each lead, and the page-view beacon counts the visit by it. A landing with campaign
 * tags, a click id or another site's referrer replaces what the session kept (the last touch
 * counts); a reload, Back or Forward, an internal link or a typed address keeps it. The tags are
 * taken out of the visible address, so links the visitor shares do not carry them.
 */

/** What a page load starts from. */
export interface Landing {
  href: string;
  /** `document.referrer`: the page that linked here, or empty. */
  referrer: string;
  /** How the page was reached (PerformanceNavigationTiming's `type`): only `navigate` is a landing. */
  navigationType: string;
  now: Date;
}

// eslint-disable-next-line no-control-regex -- taking control characters out is the point
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/g;

/**
 * A value as the site keeps it: one Unicode form, no control characters, no surrounding spaces,
 * at most ATTRIBUTION_VALUE_MAX characters (never half of a surrogate pair).
 */
export function cleanValue(value: string): string {
  const text = value.normalize('NFC').replace(CONTROL, '').trim();
  if (text.length <= ATTRIBUTION_VALUE_MAX) return text;
  const cut = text.slice(0, ATTRIBUTION_VALUE_MAX);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** Another site's host, when the referrer is a web page elsewhere. */
function referrerHost(referrer: string, origin: string): string | undefined {
  try {
    const url = new URL(referrer);
    return /^https?:$/.test(url.protocol) && url.origin !== origin ? url.host : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The attribution a page load would record, and whether it is a landing that replaces what the
 * session kept: reached by a link or a typed address (not a reload, Back or Forward) with a
 * campaign parameter or from another site.
 */
export function landingAttribution({ href, referrer, navigationType, now }: Landing): { attribution: Attribution; replaces: boolean } {
  const url = new URL(href);
  const attribution: Attribution = {};
  for (const param of CAMPAIGN_PARAMS) {
    const value = cleanValue(url.searchParams.get(param) ?? '');
    if (value !== '') attribution[param] = value;
  }
  const tagged = Object.keys(attribution).length > 0;
  const host = referrerHost(referrer, url.origin);
  if (host) attribution.referrer_host = cleanValue(host);
  attribution.landing_path = cleanValue(url.pathname);
  attribution.landed_at = now.toISOString();
  return { attribution, replaces: navigationType === 'navigate' && (tagged || host !== undefined) };
}

/** The address as shown, without its campaign parameters (other parameters and the hash stay); undefined when it has none. */
export function addressWithoutCampaignParams(href: string): string | undefined {
  const url = new URL(href);
  const present = CAMPAIGN_PARAMS.filter((param) => url.searchParams.has(param));
  if (present.length === 0) return undefined;
  for (const param of present) url.searchParams.delete(param);
  return `${url.pathname}${url.search}${url.hash}`;
}

function navigationType(): string {
  const [entry] = performance.getEntriesByType?.('navigation') ?? [];
  return (entry as PerformanceNavigationTiming | undefined)?.type ?? 'navigate';
}

/**
 * Records this page load's attribution when the session has none or the load is a new landing,
 * then takes the campaign parameters out of the address bar. Runs before the router reads the
 * address.
 */
export function captureLanding(now = new Date()): void {
  const landing = landingAttribution({ href: window.location.href, referrer: document.referrer, navigationType: navigationType(), now });
  if (landing.replaces || !readSessionAttribution()) {
    writeSessionAttribution({ sessionId: randomId(), attribution: landing.attribution });
  }
  const cleaned = addressWithoutCampaignParams(window.location.href);
  if (cleaned !== undefined) window.history.replaceState(window.history.state, '', cleaned);
}
