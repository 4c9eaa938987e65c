import type { BlogPost } from '@agency/shared';
import { blogPostResource, type ApiResource } from '@agency/shared/data';

/**
 * The post page's post. A post that comes over the API is sanitized before it is rendered, because
 * the page must not trust stored HTML; DOMPurify is fetched alongside it. The post the server
 * rendered the page with is taken as it is: its HTML is already on the page, parsed with the page
 * itself, so sanitizing it again protects nothing, and DOMPurify stays off the first load.
 */
export function sanitizedPostResource(postId: string): ApiResource<BlogPost> {
  const resource = blogPostResource(postId);
  return {
    ...resource,
    async load() {
      const [post, { sanitizePostHtml }] = await Promise.all([resource.load(), import('./sanitize-post-html')]);
      const reading = resource.read(post);
      return reading ? { ...reading.data, content: sanitizePostHtml(reading.data.content) } : post;
    },
  };
}
