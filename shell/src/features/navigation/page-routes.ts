import { BLOG_LISTING_PATH, PRIVACY_PATH, UNKNOWN_PAGE } from '@agency/shared';
import { matchPath } from '@agency/shared/router';

/** The shell's page routes: what App renders for each, and what telemetry reports a page as. */
export const PAGE_ROUTES = {
  home: '/',
  blogListing: BLOG_LISTING_PATH,
  blogPost: `${BLOG_LISTING_PATH}/:postId`,
  privacy: PRIVACY_PATH,
} as const;

/** The route pattern a path matches (`/blog/:postId`), or `*` for a page that does not exist. */
export function pagePattern(pathname: string): string {
  return Object.values(PAGE_ROUTES).find((pattern) => matchPath(pattern, pathname)) ?? UNKNOWN_PAGE;
}
