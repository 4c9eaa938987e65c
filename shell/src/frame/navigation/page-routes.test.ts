import { PRIVACY_PATH, UNKNOWN_PAGE } from '@agency/shared';
import { pagePattern } from './page-routes';

describe('pagePattern', () => {
  it.each([
    ['/', '/'],
    ['/blog', '/blog'],
    ['/blog/', '/blog'],
    ['/blog/12', '/blog/:postId'],
    ['/blog/novyny-agentstva', '/blog/:postId'],
    [PRIVACY_PATH, PRIVACY_PATH],
  ])('reports %s as the route %s', (pathname, pattern) => {
    expect(pagePattern(pathname)).toBe(pattern);
  });

  it.each(['/about', '/blog/12/comments', '/blogs', `${PRIVACY_PATH}/x`, '/index.html'])('reports %s, which matches no route, as *', (pathname) => {
    expect(pagePattern(pathname)).toBe(UNKNOWN_PAGE);
    expect(UNKNOWN_PAGE).toBe('*');
  });
});
