import type { Ref } from 'react';
import { Link } from '@agency/shared/router';
import type { BlogPost } from '@agency/shared';
import { formatPostDate } from '../../shared/format-date';
import { PostCover } from '../../shared/PostCover';
import type { BackLink } from '../../shared/post-origin';
import styles from './BlogPostPage.module.css';

interface BlogPostArticleProps {
  post: BlogPost;
  headingRef: Ref<HTMLHeadingElement>;
  /** Where the visitor came from (the listing or the home's blog section), else the home page. */
  backLink: BackLink;
}

/** What the back link says: where it leads. */
function backLinkLabel({ target, category }: BackLink): string {
  if (target === 'home') return 'Повернутися на головну';
  return category ? `До статей рубрики «${category}»` : 'До всіх статей';
}

/** A loaded post: image, category, title, date, author, the sanitized content and a way back. */
export function BlogPostArticle({ post, headingRef, backLink }: BlogPostArticleProps) {
  return (
    <article className={styles.article} aria-labelledby="blog-post-title">
      <PostCover className={styles.image} post={post} priority />
      <header className={styles.header}>
        <p className={styles.badge}>{post.category}</p>
        <h1 id="blog-post-title" className={styles.title} tabIndex={-1} ref={headingRef}>
          {post.title}
        </h1>
        <p className={styles.byline}>
          <time dateTime={post.created_at}>{formatPostDate(post.created_at)}</time>
          <span aria-hidden="true"> · </span>
          <span>Автор: {post.author}</span>
        </p>
      </header>
      {/* Sanitized when it came over the API; see sanitizedPostResource. */}
      <div className={styles.content} data-testid="blog-post-content" dangerouslySetInnerHTML={{ __html: post.content }} />
      <footer className={styles.footer}>
        <Link to={backLink.to} className={styles.backLink}>
          <span aria-hidden="true">← </span>
          {backLinkLabel(backLink)}
        </Link>
      </footer>
    </article>
  );
}
