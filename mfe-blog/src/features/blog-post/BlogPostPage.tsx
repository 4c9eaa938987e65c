import { useEffect, useRef } from 'react';
import { Link } from '@agency/shared/router';
import { POST_LOADING_TEXT, POST_NOT_FOUND_TEXT, typeset, type BlogPostPageProps } from '@agency/shared';
import { useApiResource } from '@agency/shared/data';
import { backLinkFor, usePostOrigin } from '../../shared/post-origin';
import { BlogPostArticle } from './BlogPostArticle';
import { RelatedPosts } from './RelatedPosts';
import { sanitizedPostResource } from './sanitized-post-resource';
import { useDocumentMeta } from '../../shared/use-document-meta';
import { postNotFoundMeta, postPageMeta } from './post-page-meta';
import styles from './BlogPostPage.module.css';

/**
 * `/blog/:postId`: loading, then the post and the posts related to it, or "not found" on any
 * failure (logged). The shell supplies header and footer, and decides where the page is scrolled
 * (top for a new visit, the old position for Back and Forward).
 */
export default function BlogPostPage({ postId }: BlogPostPageProps) {
  const state = useApiResource(sanitizedPostResource(postId), 'mfe-blog');
  const from = usePostOrigin();
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    // Screen-reader users land on the heading of what has just appeared.
    if (state.status !== 'loading') headingRef.current?.focus({ preventScroll: true });
  }, [state.status]);

  const meta =
    state.status === 'loaded' ? postPageMeta(state.data) : state.status === 'failed' ? postNotFoundMeta(postId) : null;
  useDocumentMeta(meta?.title ?? null, state.status === 'loaded' ? state.data.excerpt : null);

  if (state.status === 'loading') {
    return (
      <p className={styles.status} role="status">
        {POST_LOADING_TEXT}
      </p>
    );
  }

  if (state.status === 'failed') {
    return (
      <div className={styles.notFound}>
        <h1 className={styles.title} tabIndex={-1} ref={headingRef}>
          {POST_NOT_FOUND_TEXT}
        </h1>
        <p className={styles.notFoundText}>
          {typeset('Можливо, посилання застаріло або містить помилку. Решту статей ви знайдете в блозі й на головній сторінці.')}
        </p>
        <Link to="/" className={styles.backLink}>
          <span aria-hidden="true">← </span>Повернутися на головну
        </Link>
      </div>
    );
  }

  return (
    <>
      <BlogPostArticle post={state.data} headingRef={headingRef} backLink={backLinkFor(from)} />
      <RelatedPosts postId={postId} from={from} />
    </>
  );
}
