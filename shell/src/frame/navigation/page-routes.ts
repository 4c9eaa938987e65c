import { matchPageRoute, UNKNOWN_PAGE } from '@agency/shared';

/** The route pattern a path matches (`/blog/:postId`), or `*` for a page that does not exist. */
export function pagePattern(pathname: string): string {
  return matchPageRoute(pathname)?.pattern ?? UNKNOWN_PAGE;
}
