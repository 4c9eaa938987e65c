/** The home page shows at most this many blog posts (spec section 9). */
export const BLOG_TEASER_LIMIT = 3;
