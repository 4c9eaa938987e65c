import { backLinkFor, HOME_BLOG_SECTION, postLinkState } from './post-origin';

describe('backLinkFor', () => {
  it('leads home when the origin is unknown (the post was opened directly)', () => {
    expect(backLinkFor(null)).toEqual({ to: '/', target: 'home', category: null });
  });

  it("leads to the home's blog section from the teaser", () => {
    expect(backLinkFor(HOME_BLOG_SECTION)).toEqual({ to: '/#blog', target: 'home', category: null });
  });

  it('leads to the listing page it came from, with its category', () => {
    expect(backLinkFor('/blog?page=3')).toEqual({ to: '/blog?page=3', target: 'listing', category: null });
    expect(backLinkFor('/blog?category=SMM&page=2')).toEqual({ to: '/blog?category=SMM&page=2', target: 'listing', category: 'SMM' });
  });

  it('leads home from any other page', () => {
    expect(backLinkFor('/blog/5')).toEqual({ to: '/', target: 'home', category: null });
  });
});

describe('postLinkState', () => {
  it('carries the origin when there is one', () => {
    expect(postLinkState('/blog?page=2')).toEqual({ from: '/blog?page=2' });
    expect(postLinkState(null)).toBeUndefined();
  });
});
