import { BLOG_CATEGORY_MAX_LENGTH, BLOG_PAGE_MAX } from '../contracts/limits';

/** The home page shows at most this many blog posts. */
export const BLOG_TEASER_LIMIT = 3;

/** Blog post page texts, shown by the blog remote and by the shell while it loads. */
export const POST_LOADING_TEXT = 'Завантаження…';
export const POST_NOT_FOUND_TEXT = 'Стаття не знайдена';

/** The blog listing could not be shown: its remote did not load (shell) or its data did not (blog). */
export const BLOG_LISTING_FAILED_TEXT = 'Не вдалося завантажити статті. Спробуйте оновити сторінку пізніше.';

/** The category of the agency's case studies, which the home's "Наші кейси" opens. */
export const CASE_STUDIES_CATEGORY = 'Кейси';

/** The blog listing's route. */
export const BLOG_LISTING_PATH = '/blog';

/** Which listing page to show: a category (null: every post) and a 1-based page number. */
export interface BlogListingLocation {
  category: string | null;
  page: number;
}

/**
 * The address of a listing page, `/blog?category=…&page=…`, with defaults left out (`/blog` is the
 * first page of every post), so each listing page has one address.
 */
export function blogListingPath({ category = null, page = 1 }: Partial<BlogListingLocation> = {}): string {
  const params: string[] = [];
  if (category) params.push(`category=${encodeURIComponent(category)}`);
  if (page > 1) params.push(`page=${page}`);
  return params.length === 0 ? BLOG_LISTING_PATH : `${BLOG_LISTING_PATH}?${params.join('&')}`;
}

const PAGE_NUMBER = /^[1-9][0-9]*$/;

/**
 * The listing page a URL's search string (`?category=Кейси&page=2`) asks for. A page number that is
 * not a canonical positive integer (or beyond BLOG_PAGE_MAX) means the first page; an empty or
 * over-long category means every post.
 */
export function parseBlogListingSearch(search: string): BlogListingLocation {
  const params = new URLSearchParams(search);
  const rawPage = params.get('page') ?? '';
  const page = PAGE_NUMBER.test(rawPage) && Number(rawPage) <= BLOG_PAGE_MAX ? Number(rawPage) : 1;
  const rawCategory = params.get('category')?.trim() ?? '';
  const category = rawCategory.length > 0 && rawCategory.length <= BLOG_CATEGORY_MAX_LENGTH ? rawCategory : null;
  return { category, page };
}
