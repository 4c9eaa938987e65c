import { useParams } from '@agency/shared/router';
import { POST_LOADING_TEXT } from '@agency/shared';
import { RemoteSlot } from '../../frame/federation/remote-slot';
import styles from './BlogPostRoute.module.css';

export const BLOG_UNAVAILABLE_MESSAGE = 'Не вдалося завантажити статтю. Спробуйте оновити сторінку пізніше.';

/** `/blog/:postId`: the blog remote's post page, keyed so a new id starts from a clean state. */
export function BlogPostRoute() {
  const { postId = '' } = useParams();
  return (
    <div className={styles.container}>
      <RemoteSlot
        key={postId}
        id="blog/BlogPostPage"
        props={{ postId }}
        minHeight="60vh"
        message={BLOG_UNAVAILABLE_MESSAGE}
        loading={<p className={styles.loading}>{POST_LOADING_TEXT}</p>}
      />
    </div>
  );
}
