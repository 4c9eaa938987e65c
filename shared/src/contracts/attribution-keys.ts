/**
 * What the site remembers of a visitor's landing for the browser session, and sends with each
 * lead, as plain values a browser bundle may import. The schema is in ./attribution.ts.
 */

/** The landing address's query parameters that say which campaign or ad brought the visitor. */
export const CAMPAIGN_PARAMS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content', 'gclid', 'fbclid'] as const;

/** Every key of an attribution: the campaign parameters, the referring site's host, the landing page's path and time. */
export const ATTRIBUTION_KEYS = [...CAMPAIGN_PARAMS, 'referrer_host', 'landing_path', 'landed_at'] as const;
export type AttributionKey = (typeof ATTRIBUTION_KEYS)[number];
