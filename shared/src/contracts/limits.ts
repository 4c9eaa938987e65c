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

/** The blog listing (`GET /api/blog/listing`) shows this many posts per page. */
export const BLOG_PAGE_SIZE = 12;

/** Highest page number the listing accepts; larger numbers are malformed (400), not just past the end. */
export const BLOG_PAGE_MAX = 10000;

/** Longest category name a listing query may carry (the length the articles' front matter allows). */
export const BLOG_CATEGORY_MAX_LENGTH = 100;

/** A post page shows at most this many related posts (`GET /api/blog/:id/related`). */
export const BLOG_RELATED_LIMIT = 3;
