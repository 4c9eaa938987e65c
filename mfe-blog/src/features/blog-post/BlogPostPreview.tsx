import { useMemo, useRef } from 'react';
import type { BlogPostPreviewProps } from '@agency/shared';
import { backLinkFor } from '../../shared/post-origin';
import { BlogPostArticle } from './BlogPostArticle';
import { sanitizePostHtml } from './sanitize-post-html';

/**
 * A post as it would be published, drawn exactly as its page draws it: the staff console's
 * preview of an article, with this remote's released code and styles. Its HTML is sanitized as
 * any post that comes over the API is.
 */
export default function BlogPostPreview({ post }: BlogPostPreviewProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const safe = useMemo(() => ({ ...post, content: sanitizePostHtml(post.content) }), [post]);
  return <BlogPostArticle post={safe} headingRef={headingRef} backLink={backLinkFor(null)} />;
}
