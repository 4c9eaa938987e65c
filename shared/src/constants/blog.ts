/** The home page shows at most this many blog posts (spec section 9). */
export const BLOG_TEASER_LIMIT = 3;

/** Blog post page texts (spec section 2), shown by the blog remote and by the shell while it loads. */
export const POST_LOADING_TEXT = 'Завантаження…';
export const POST_NOT_FOUND_TEXT = 'Стаття не знайдена';
