import type { BlogPostSummary } from '@agency/shared';
import { BlogCard } from './BlogCard';
import grid from './card-grid.module.css';

/** Cards in the grid's first row at its widest (three columns, card-grid.module.css). */
export const FIRST_ROW_CARDS = 3;

interface PostCardListProps {
  posts: readonly BlogPostSummary[];
  /** Where the list is shown: each post's back link returns there. */
  from: string | null;
  /** Names the list for screen readers when its heading does not. */
  label?: string;
  /** The card titles' level under the heading of the list. */
  headingLevel?: 2 | 3;
  /**
   * A list at the top of its page: the first row's covers load at once, with priority, as one of
   * them is the page's largest paint; the rest (and every cover of a lower list) wait until near.
   */
  atTop?: boolean;
}

/** Posts as cards in the blog's grid: the teaser, the listing and the related posts. */
export function PostCardList({ posts, from, label, headingLevel, atTop = false }: PostCardListProps) {
  return (
    <ul className={grid.grid} aria-label={label}>
      {posts.map((post, index) => (
        <li key={post.id} className={grid.item}>
          <BlogCard post={post} from={from} headingLevel={headingLevel} priorityCover={atTop && index < FIRST_ROW_CARDS} />
        </li>
      ))}
    </ul>
  );
}
