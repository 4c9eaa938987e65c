import { useEffect, useState } from 'react';
import { serverDataFor, type BlogPost } from '@agency/shared';
import { blogPostPath, fetchBlogPost } from '@agency/shared/api-client';

export type BlogPostState =
  | { status: 'loading' }
  | { status: 'loaded'; post: BlogPost }
  | { status: 'not-found' };

type Settled = { postId: string } & ({ status: 'loaded'; post: BlogPost } | { status: 'not-found' });

/** What the server rendered this post with: the page starts from it instead of asking again. */
function renderedOnServer(postId: string): Settled | null {
  const rendered = serverDataFor(blogPostPath(postId));
  if (rendered?.status === 200) return { postId, status: 'loaded', post: rendered.body as BlogPost };
  if (rendered?.status === 404) return { postId, status: 'not-found' };
  return null;
}

/** One post by id. Any failure (404, 500, network, malformed id) means "not found" for the visitor. */
export function useBlogPost(postId: string): BlogPostState {
  const [settled, setSettled] = useState<Settled | null>(() => renderedOnServer(postId));

  useEffect(() => {
    if (settled?.postId === postId) return;
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
    // Only a new id loads: `settled` changing is this effect's own result.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [postId]);

  // A result for another id is stale: the new id is still loading.
  if (!settled || settled.postId !== postId) return { status: 'loading' };
  return settled.status === 'loaded' ? { status: 'loaded', post: settled.post } : { status: 'not-found' };
}
