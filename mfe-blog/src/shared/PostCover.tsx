import type { BlogPostSummary } from '@agency/shared';

/** Size of the seeded cover art; width and height reserve the space before the image arrives. */
const COVER_WIDTH = 1200;
const COVER_HEIGHT = 630;

interface PostCoverProps {
  post: Pick<BlogPostSummary, 'image_url' | 'title'>;
  className?: string;
  /** A cover that may be the page's largest paint (a post's, the listing's first row); others wait until scrolled near. */
  priority?: boolean;
}

/**
 * A post's cover image with its alt text and intrinsic size. A post without a cover gets an empty
 * box in its place (`className` gives it the cover's shape), so its card lines up with the others.
 */
export function PostCover({ post, className, priority = false }: PostCoverProps) {
  if (!post.image_url) return <div className={className} aria-hidden="true" />;
  return (
    <img
      className={className}
      src={post.image_url}
      alt={`Ілюстрація до статті «${post.title}»`}
      width={COVER_WIDTH}
      height={COVER_HEIGHT}
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : 'auto'}
      decoding="async"
    />
  );
}
