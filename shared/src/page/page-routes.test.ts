import { matchPath } from '../routing/router';
import { canonicalPagePath, matchPageRoute, PAGE_ROUTES } from './page-routes';

describe('canonicalPagePath', () => {
  it.each([
    ['/', '/'],
    ['/privacy', '/privacy'],
    ['/PRIVACY', '/privacy'],
    ['/%70rivacy', '/privacy'],
    ['/%50RIVACY/', '/privacy'],
    ['/privacy//', '/privacy'],
    ['//privacy', '/privacy'],
    ['/./privacy', '/privacy'],
    ['/blog/../privacy', '/privacy'],
    ['/%2e/privacy', '/privacy'],
    ['/blog//', '/blog'],
    ['/Blog/1/', '/blog/1'],
    ['/blog//7', '/blog/7'],
    ['/BLOG/%31%32', '/blog/12'],
    ['//', '/'],
    // A parameter keeps its spelling: it is the post's, not the route's.
    ['/blog/Novyny', '/blog/Novyny'],
    ['/blog/%D0%B1', '/blog/%D0%B1'],
  ])('spells %s as %s', (path, canonical) => {
    expect(canonicalPagePath(path)).toBe(canonical);
  });

  it.each(['/about', '/blog/12/comments', '/blogs', '/privacy/x', '/index.html', '/privacy%2F', '/priv%61cy%20', '/blog%2F12'])(
    'names no page for %s',
    (path) => {
      expect(canonicalPagePath(path)).toBeUndefined();
    },
  );

  it('agrees with the router: every spelling it takes for a page leads to that route', () => {
    for (const path of ['/PRIVACY', '/Blog/1/', '/blog/', '/%70rivacy']) {
      const canonical = canonicalPagePath(path)!;
      const route = Object.values(PAGE_ROUTES).find((pattern) => matchPath(pattern, canonical));
      const routeOfSpelling = Object.values(PAGE_ROUTES).find((pattern) => matchPath(pattern, decodeURIComponent(path)));
      expect(route).toBe(routeOfSpelling);
    }
  });
});

describe('matchPageRoute', () => {
  it.each([
    ['/', '/'],
    ['/Blog/12/', '/blog/:postId'],
    ['/PRIVACY', '/privacy'],
    ['/about', undefined],
  ])('reports %s as the route %s', (path, pattern) => {
    expect(matchPageRoute(path)?.pattern).toBe(pattern);
  });
});
