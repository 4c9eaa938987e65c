import type { Attribution } from '../contracts/attribution';
import { ATTRIBUTION_VALUE_MAX } from '../contracts/limits';
import { maskEmailAddresses } from '../telemetry/mask-personal-data';

/**
 * What the agency reports a visit or a lead under: its source, medium and campaign, derived from
 * its attribution the same way in the browser (the page-view beacon) and in the API (leads).
 * The labels follow the analytics tools the agency's people know.
 */

/** No campaign tags and no other site before this one: typed in, a bookmark, an app. */
export const DIRECT_SOURCE = '(direct)';
/** The medium of a direct visit. */
export const NO_MEDIUM = '(none)';
/** A part the visit did not say (a campaign-less referral; a lead sent without attribution). */
export const NOT_SET = '(not set)';
/** The medium of a visit from another site's link without campaign tags. */
export const REFERRAL_MEDIUM = 'referral';

export interface TrafficSource {
  source: string;
  medium: string;
  campaign: string;
}

/**
 * The source, medium and campaign of an attribution:
 * - tagged links (`utm_source`) say them outright;
 * - a Google Ads click without tags (`gclid`) is `google / cpc`;
 * - a link from another site is its host, medium `referral`;
 * - anything else is `(direct) / (none)`.
 * Parts a visit did not say are `(not set)`; so is everything of a lead that came without one.
 * An e-mail address someone put in a tag is masked: visits are counted without personal data.
 */
export function trafficSource(attribution: Attribution | null | undefined): TrafficSource {
  const { source, medium, campaign } = unmaskedSource(attribution);
  const part = (text: string) => maskEmailAddresses(text).slice(0, ATTRIBUTION_VALUE_MAX);
  return { source: part(source), medium: part(medium), campaign: part(campaign) };
}

function unmaskedSource(attribution: Attribution | null | undefined): TrafficSource {
  if (!attribution) return { source: NOT_SET, medium: NOT_SET, campaign: NOT_SET };
  const { utm_source, utm_medium, utm_campaign, gclid, referrer_host } = attribution;
  const campaign = utm_campaign || NOT_SET;
  if (utm_source) return { source: utm_source, medium: utm_medium || NOT_SET, campaign };
  if (gclid) return { source: 'google', medium: utm_medium || 'cpc', campaign };
  if (referrer_host) return { source: referrer_host, medium: utm_medium || REFERRAL_MEDIUM, campaign };
  return { source: DIRECT_SOURCE, medium: utm_medium || NO_MEDIUM, campaign };
}
