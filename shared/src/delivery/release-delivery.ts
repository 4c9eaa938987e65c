/**
 * Progressive delivery of releases (stage → canary → promote or roll back): what the server and
 * the pages agree on. The server assigns, the privacy page names the cookie, the preview banner
 * speaks to the one browser that opened a preview link.
 */

/**
 * The one cookie of release assignment (the shell's nginx template names it too): a random bucket that picks, while an app has a candidate
 * release, whether this browser gets the candidate or the current release. Strictly functional:
 * it holds a number and nothing about the visitor, and is set only while a canary runs.
 */
export const RELEASE_BUCKET_COOKIE = 'agency_bucket';

/** Buckets are whole numbers below this; a share of 12.5 % is the buckets below 1,250. */
export const RELEASE_BUCKETS = 10_000;

/** How long a browser keeps its bucket, so it keeps its release set across visits. */
export const RELEASE_BUCKET_MAX_AGE_DAYS = 30;

/** The query parameter a preview link carries its signed token in (`/?preview=<token>`). */
export const PREVIEW_QUERY_PARAM = 'preview';

/** The cookie a browser that opened a preview link keeps the token in, until it expires or the visitor leaves. */
export const PREVIEW_COOKIE = 'agency_preview';

/** How long a preview link is valid. */
export const PREVIEW_TOKEN_HOURS = 24;

/** Where the banner's exit link leads: clears the preview cookie, then back to the page. */
export const PREVIEW_EXIT_PATH = '/preview/exit';

/** The banner on every page of a preview, and what it says of a link that cannot be used. */
export const PREVIEW_BANNER = {
  label: 'Попередній перегляд',
  pinned: (app: string, release: string) => `Попередній перегляд: ${app} ${release}`,
  exit: 'вийти',
  invalid: 'Посилання попереднього перегляду недійсне: ви бачите поточну версію сайту.',
  expired: 'Посилання попереднього перегляду застаріло: ви бачите поточну версію сайту.',
  missing: 'Реліз із посилання попереднього перегляду більше не зберігається: ви бачите поточну версію сайту.',
  close: 'Закрити',
} as const;
