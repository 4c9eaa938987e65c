/**
 * Every limit of the API's contracts, written once. The route schemas, the API's error messages
 * and any client-side check read them from here. Plain values (no TypeBox), so browser bundles
 * may import them.
 */

/** Longest accepted text of each submitted field, in characters (after trimming). */
export const FIELD_LIMITS = {
  name: 100,
  email: 254,
  phone: 30,
  city: 100,
  company: 200,
  message: 5000,
  resume_text: 5000,
  honeypot: 1000,
} as const;

/** `GET /api/blog?limit=` takes 1 to this many posts; without `limit` the list is this long. */
export const BLOG_LIMIT_MAX = 50;
