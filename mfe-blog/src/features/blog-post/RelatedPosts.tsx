import { relatedPostsResource, useApiResource } from '@agency/shared/data';
import { PostCardList } from '../../shared/PostCardList';
import styles from './BlogPostPage.module.css';

interface RelatedPostsProps {
  postId: string;
  /** Where the visitor opened this post from: the next post's back link returns there too. */
  from: string | null;
}

/** Posts to read next (same category first, then the newest); nothing while loading or on failure. */
export function RelatedPosts({ postId, from }: RelatedPostsProps) {
  const state = useApiResource(relatedPostsResource(postId), 'mfe-blog');
  if (state.status !== 'loaded' || state.data.length === 0) return null;
  return (
    <section className={styles.related} aria-labelledby="related-posts-title">
      <h2 id="related-posts-title" className={styles.relatedTitle}>
        Читайте також
      </h2>
      <PostCardList posts={state.data} from={from} />
    </section>
  );
}
