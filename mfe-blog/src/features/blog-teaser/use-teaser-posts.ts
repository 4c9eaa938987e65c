import { useEffect, useState } from 'react';
import { BLOG_TEASER_LIMIT, type BlogPostSummary } from '@agency/shared';
import { fetchBlogPosts } from '@agency/shared/api-client';

export type TeaserPostsState =
  | { status: 'loading' }
  | { status: 'loaded'; posts: BlogPostSummary[] }
  | { status: 'failed' };

/** The newest posts for the home page: at most BLOG_TEASER_LIMIT, whatever the API returns. */
export function useTeaserPosts(): TeaserPostsState {
  const [state, setState] = useState<TeaserPostsState>({ status: 'loading' });

  useEffect(() => {
    let active = true;
    fetchBlogPosts(BLOG_TEASER_LIMIT).then(
      (posts) => {
        // The spec displays only the first 3, so the cut holds even if the API ignores the limit.
        if (active) setState({ status: 'loaded', posts: posts.slice(0, BLOG_TEASER_LIMIT) });
      },
      (error: unknown) => {
        // Spec section 8: a failed list is logged only; the visitor sees no error.
        console.error('[mfe-blog] Failed to load the blog teaser posts', error);
        if (active) setState({ status: 'failed' });
      },
    );
    return () => {
      active = false;
    };
  }, []);

  return state;
}
