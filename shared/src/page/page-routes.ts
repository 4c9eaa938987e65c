import { BLOG_LISTING_PATH } from '../constants/blog';
import { PRIVACY_PATH } from '../constants/privacy';
import { FORM_RESULT_ROUTE } from './form-results';

/**
 * The site's pages: the routes the shell renders, what telemetry reports a page as, and the paths
 * the server answers under one spelling only.
 */
export const PAGE_ROUTES = {
  home: '/',
  blogListing: BLOG_LISTING_PATH,
  blogPost: `${BLOG_LISTING_PATH}/:postId`,
  privacy: PRIVACY_PATH,
  formResult: FORM_RESULT_ROUTE,
} as const;

export type PageRoutePattern = (typeof PAGE_ROUTES)[keyof typeof PAGE_ROUTES];

/** Every route pattern (`/`, `/blog/:postId`…): what telemetry reports a page as, besides UNKNOWN_PAGE. */
export const ROUTE_PATTERNS: readonly PageRoutePattern[] = Object.values(PAGE_ROUTES);

const PATTERNS: readonly (readonly string[])[] = ROUTE_PATTERNS.map((pattern) => pattern.split('/').filter(Boolean));

/** RFC 3986's unreserved characters: percent-encoding one of them changes nothing but the spelling. */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

function decodeUnreserved(path: string): string {
  return path.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : escape;
  });
}

/** The path's segments with `.` and `..` resolved and empty ones (`//`, a trailing `/`) left out. */
function segmentsOf(path: string): string[] {
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return segments;
}

/** The page a path asks for: its route, and the route's own spelling of the path. */
export interface PageRouteMatch {
  pattern: PageRoutePattern;
  /** The canonical path: the route's spelling, with a parameter (a post's id) as it was written. */
  path: string;
}

/**
 * The page a path names, or undefined when it names none. The router takes a path whatever its
 * case, its percent-encoding of plain characters, its doubled or trailing slashes and its dot
 * segments (`/PRIVACY`, `/%70rivacy`, `/blog//`, `/Blog/1/`); all of them match here too.
 */
export function matchPageRoute(pathname: string): PageRouteMatch | undefined {
  const segments = segmentsOf(decodeUnreserved(pathname));
  for (const [index, pattern] of PATTERNS.entries()) {
    if (pattern.length !== segments.length) continue;
    if (!pattern.every((part, at) => part.startsWith(':') || part === segments[at]!.toLowerCase())) continue;
    return {
      pattern: ROUTE_PATTERNS[index]!,
      path: `/${pattern.map((part, at) => (part.startsWith(':') ? segments[at] : part)).join('/')}`,
    };
  }
  return undefined;
}

/** The one spelling of the page a path asks for, or undefined when it names no page. */
export function canonicalPagePath(pathname: string): string | undefined {
  return matchPageRoute(pathname)?.path;
}
