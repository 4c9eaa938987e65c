import { PAGE_ROUTES, UNKNOWN_PAGE } from '@agency/shared';
import { matchPath } from '@agency/shared/router';

/** The route pattern a path matches (`/blog/:postId`), or `*` for a page that does not exist. */
export function pagePattern(pathname: string): string {
  return Object.values(PAGE_ROUTES).find((pattern) => matchPath(pattern, pathname)) ?? UNKNOWN_PAGE;
}
