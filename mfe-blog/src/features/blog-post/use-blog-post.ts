import { useEffect, useState } from 'react';
import type { BlogPost } from '@agency/shared';
import { fetchBlogPost } from '@agency/shared/api-client';

export type BlogPostState =
  | { status: 'loading' }
  | { status: 'loaded'; post: BlogPost }
  | { status: 'not-found' };

type Settled = { postId: string } & ({ status: 'loaded'; post: BlogPost } | { status: 'not-found' });

/** One post by id. Any failure (404, 500, network, malformed id) means "not found" for the visitor. */
export function useBlogPost(postId: string): BlogPostState {
  const [settled, setSettled] = useState<Settled | null>(null);

  useEffect(() => {
    let active = true;
    fetchBlogPost(postId).then(
      (post) => {
        if (active) setSettled({ postId, status: 'loaded', post });
      },
      (error: unknown) => {
        // Spec section 8: logged, then the page says the post was not found.
        console.error(`[mfe-blog] Failed to load blog post "${postId}"`, error);
        if (active) setSettled({ postId, status: 'not-found' });
      },
    );
    return () => {
      active = false;
    };
  }, [postId]);

  // A result for another id is stale: the new id is still loading.
  if (!settled || settled.postId !== postId) return { status: 'loading' };
  return settled.status === 'loaded' ? { status: 'loaded', post: settled.post } : { status: 'not-found' };
}
