import { useSyncExternalStore } from 'react';
import { BLOG_LISTING_PATH, parseBlogListingSearch, SECTION_IDS } from '@agency/shared';
import { useLocation } from '@agency/shared/router';

/** Where a visitor opened a post from, carried in the link's history state. */
interface PostLinkState {
  from: string;
}

/** The home page's blog section, where the teaser's cards are. */
export const HOME_BLOG_SECTION = `/#${SECTION_IDS.blog}`;

/** The history state a post link carries: the address it was followed from, if known. */
export function postLinkState(from: string | null): PostLinkState | undefined {
  return from === null ? undefined : { from };
}

/**
 * Where a post page's back link leads: the home page or a listing page (`category` names the
 * listing's filter). The post page words it (BlogPostArticle), so the words ship with the post
 * page's own code.
 */
export interface BackLink {
  to: string;
  target: 'home' | 'listing';
  category: string | null;
}

/** A post opened directly (a shared or typed address): the spec's link home. */
const DEFAULT_BACK_LINK: BackLink = { to: '/', target: 'home', category: null };

/** A site-relative address (never another origin, `//host` included) read from history state. */
function fromOf(state: unknown): string | null {
  const from = (state as Partial<PostLinkState> | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') ? from : null;
}

/**
 * The back link of a post opened from `from`: the home page's blog section (where the teaser is)
 * or the listing with its category and page. With no known origin (or an unknown one), the home
 * page, as before there was a listing; the header's "Блог" and the related posts lead on.
 */
export function backLinkFor(from: string | null): BackLink {
  if (from === null) return DEFAULT_BACK_LINK;
  const url = new URL(from, 'http://site.invalid');
  if (url.pathname === '/') return { to: from, target: 'home', category: null };
  if (url.pathname !== BLOG_LISTING_PATH) return DEFAULT_BACK_LINK;
  return { to: from, target: 'listing', category: parseBlogListingSearch(url.search).category };
}

const subscribeToNothing = () => () => {};

/**
 * The address the visitor opened this page from, or null. Null too while the page hydrates: the
 * server knew no history state, so the first render must match its markup.
 */
export function usePostOrigin(): string | null {
  const { state } = useLocation();
  const hydrated = useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
  return hydrated ? fromOf(state) : null;
}
