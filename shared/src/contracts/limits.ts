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

/**
 * Longest value of each field of an article, in characters, for a file's front matter and the
 * console alike. Title, slug, category and author are the sizes of their blog_posts columns
 * (migration 0001, which is frozen and so cannot read them from here; a test compares them with
 * the database). The excerpt column is unbounded: 500 keeps cards and search descriptions short.
 * The cover is a path in the content folder or a media URL; the Markdown body is long enough for
 * any article and keeps one save's body small.
 */
export const ARTICLE_LIMITS = { title: 300, slug: 200, category: 100, author: 200, excerpt: 500, cover: 300, markdown: 100_000 } as const;

/**
 * A service as an editor writes it, in characters (title and slug: their services columns, migration
 * 0001), how many features it lists, and its highest starting price in hryvnias.
 */
export const SERVICE_LIMITS = { title: 200, slug: 100, description: 1000, feature: 200, features: 12, priceFrom: 10_000_000 } as const;

/** Longest category name a listing query may carry (the length an article's category may have). */
export const BLOG_CATEGORY_MAX_LENGTH = ARTICLE_LIMITS.category;

/** A post page shows at most this many related posts (`GET /api/blog/:id/related`). */
export const BLOG_RELATED_LIMIT = 3;

/**
 * What a browser may send to `POST /api/telemetry` in one beacon, and what the shell sends at most.
 * Bigger bodies are refused (413), longer texts or lists are malformed (400).
 */
export const TELEMETRY_LIMITS = {
  /** A beacon's body, in bytes. */
  bodyBytes: 64 * 1024,
  /** Page views, vitals and errors in one beacon. */
  pageViews: 20,
  vitals: 50,
  errors: 20,
  /** Errors one page view reports at most (the same error repeated counts once, with its count). */
  errorsPerPageView: 20,
  /** How often one error may be counted in one report. */
  errorCount: 1000,
  message: 500,
  stack: 4000,
  page: 100,
  release: 100,
  /** A vital's value: milliseconds, or CLS's score. */
  vitalValue: 3_600_000,
} as const;

/**
 * Where a lead or a visit came from (campaign tags, click ids, referring site, landing page):
 * each value's longest accepted text. The browser clips longer values to it; the API drops an
 * attribution with a longer one.
 */
export const ATTRIBUTION_VALUE_MAX = 200;

/** The ports a remote's build on a release manager's own machine may be served from (`http://localhost:<port>/`), for an override of one browser. */
export const LOCAL_BUILD_PORTS = { min: 1024, max: 65_535 } as const;
