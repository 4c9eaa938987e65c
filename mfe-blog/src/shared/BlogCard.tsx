import { Link } from '@agency/shared/router';
import type { BlogPostSummary } from '@agency/shared';
import { formatPostDate } from './format-date';
import { PostCover } from './PostCover';
import { postLinkState } from './post-origin';
import hidden from './visually-hidden.module.css';
import styles from './BlogCard.module.css';

interface BlogCardProps {
  post: BlogPostSummary;
  /** Where the card is shown (path, search and hash): the post's back link returns there. */
  from: string | null;
  /** The card title's level under the heading of the list it is in. */
  headingLevel?: 2 | 3;
  /** The cover loads at once, with priority (a card in the first row at the top of the page). */
  priorityCover?: boolean;
}

/**
 * One post card; what the post lacks (category, date, excerpt, cover) is left out. 'Читати далі' is its only link; a pseudo-element stretches it over the whole
 * card, so a click anywhere on it (title and cover included) opens the post while screen readers
 * meet a single link.
 */
export function BlogCard({ post, from, headingLevel = 3, priorityCover = false }: BlogCardProps) {
  const titleId = `blog-card-title-${post.id}`;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className={styles.card} aria-labelledby={titleId}>
      <PostCover className={styles.image} post={post} priority={priorityCover} />
      <div className={styles.body}>
        {(post.category || post.created_at) && (
          <p className={styles.meta}>
            {post.category && <span className={styles.category}>{post.category}</span>}
            {post.created_at && <time dateTime={post.created_at}>{formatPostDate(post.created_at)}</time>}
          </p>
        )}
        <Heading id={titleId} className={styles.title}>
          {post.title}
        </Heading>
        {post.excerpt && <p className={styles.excerpt}>{post.excerpt}</p>}
        <Link to={`/blog/${post.id}`} state={postLinkState(from)} className={styles.readMore}>
          Читати далі<span className={hidden.visuallyHidden}>: {post.title}</span>
          <span aria-hidden="true"> →</span>
        </Link>
      </div>
    </article>
  );
}
