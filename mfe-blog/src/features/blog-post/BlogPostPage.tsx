import { useEffect, useRef } from 'react';
import { Link } from '@agency/shared/router';
import { POST_LOADING_TEXT, POST_NOT_FOUND_TEXT, type BlogPostPageProps } from '@agency/shared';
import { BlogPostArticle } from './BlogPostArticle';
import { useBlogPost } from './use-blog-post';
import { useDocumentMeta } from './use-document-meta';
import { postNotFoundMeta, postPageMeta } from './post-page-meta';
import styles from './BlogPostPage.module.css';

/** `/blog/:postId`: loading, then the post or "not found". The shell supplies header and footer. */
export default function BlogPostPage({ postId }: BlogPostPageProps) {
  const state = useBlogPost(postId);
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    // A new page starts at its top, wherever the previous one was scrolled to.
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, [postId]);

  useEffect(() => {
    // Screen-reader users land on the heading of what has just appeared.
    if (state.status !== 'loading') headingRef.current?.focus({ preventScroll: true });
  }, [state.status]);

  const meta =
    state.status === 'loaded' ? postPageMeta(state.post) : state.status === 'not-found' ? postNotFoundMeta(postId) : null;
  useDocumentMeta(meta?.title ?? null, state.status === 'loaded' ? state.post.excerpt : null);

  if (state.status === 'loading') {
    return (
      <p className={styles.status} role="status">
        {POST_LOADING_TEXT}
      </p>
    );
  }

  if (state.status === 'not-found') {
    return (
      <div className={styles.notFound}>
        <h1 className={styles.title} tabIndex={-1} ref={headingRef}>
          {POST_NOT_FOUND_TEXT}
        </h1>
        <p className={styles.notFoundText}>
          Можливо, посилання застаріло або містить помилку. Інші статті чекають на вас на головній сторінці.
        </p>
        <Link to="/" className={styles.backLink}>
          <span aria-hidden="true">← </span>Повернутися на головну
        </Link>
      </div>
    );
  }

  return <BlogPostArticle post={state.post} headingRef={headingRef} />;
}
