import { Link } from '@agency/shared/router';
import type { BlogPostSummary } from '@agency/shared';
import { formatPostDate } from '../../shared/format-date';
import { PostCover } from '../../shared/PostCover';
import hidden from '../../shared/visually-hidden.module.css';
import styles from './BlogCard.module.css';

interface BlogCardProps {
  post: BlogPostSummary;
}

/**
 * One teaser card. 'Читати далі' is its only link; a pseudo-element stretches it over the whole
 * card, so the card is clickable while screen readers meet a single link.
 */
export function BlogCard({ post }: BlogCardProps) {
  const titleId = `blog-card-title-${post.id}`;
  return (
    <article className={styles.card} aria-labelledby={titleId}>
      <PostCover className={styles.image} post={post} />
      <div className={styles.body}>
        <p className={styles.meta}>
          <span className={styles.category}>{post.category}</span>
          <time dateTime={post.created_at}>{formatPostDate(post.created_at)}</time>
        </p>
        <h3 id={titleId} className={styles.title}>
          {post.title}
        </h3>
        <p className={styles.excerpt}>{post.excerpt}</p>
        <Link to={`/blog/${post.id}`} className={styles.readMore}>
          Читати далі<span className={hidden.visuallyHidden}>: {post.title}</span>
          <span aria-hidden="true"> →</span>
        </Link>
      </div>
    </article>
  );
}
