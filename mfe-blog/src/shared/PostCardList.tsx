import type { BlogPostSummary } from '@agency/shared';
import { BlogCard } from './BlogCard';
import grid from './card-grid.module.css';

interface PostCardListProps {
  posts: readonly BlogPostSummary[];
  /** Where the list is shown: each post's back link returns there. */
  from: string | null;
  /** Names the list for screen readers when its heading does not. */
  label?: string;
  /** The card titles' level under the heading of the list. */
  headingLevel?: 2 | 3;
}

/** Posts as cards in the blog's grid: the teaser, the listing and the related posts. */
export function PostCardList({ posts, from, label, headingLevel }: PostCardListProps) {
  return (
    <ul className={grid.grid} aria-label={label}>
      {posts.map((post) => (
        <li key={post.id} className={grid.item}>
          <BlogCard post={post} from={from} headingLevel={headingLevel} />
        </li>
      ))}
    </ul>
  );
}
