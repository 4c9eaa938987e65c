import { BLOG_LISTING_PATH, BLOG_TEASER_LIMIT, typeset } from '@agency/shared';
import { latestPostsResource, useApiResource } from '@agency/shared/data';
import { Link } from '@agency/shared/router';
import { HOME_BLOG_SECTION } from '../../shared/post-origin';
import { CardPlaceholders } from '../../shared/CardPlaceholders';
import { PostCardList } from '../../shared/PostCardList';
import styles from './BlogTeaser.module.css';

/**
 * Home section 7: the newest posts as cards linking to /blog/{id} (a failed load is logged and
 * shows none), then a link to every post. The shell provides the <section>.
 */
export default function BlogTeaser() {
  const state = useApiResource(latestPostsResource(BLOG_TEASER_LIMIT), 'mfe-blog');
  return (
    <div className={styles.teaser}>
      <header className={styles.header}>
        <h2 className={styles.heading}>Блог</h2>
        <p className={styles.intro}>
          {typeset('Практичні поради з SMM, контенту, лідогенерації та аналітики — з досвіду наших проєктів.')}
        </p>
      </header>
      {state.status === 'loading' && (
        // Same-sized placeholders keep the page below from jumping when the cards arrive.
        <CardPlaceholders count={BLOG_TEASER_LIMIT} testId="blog-teaser-placeholders" />
      )}
      {state.status === 'loaded' && state.data.length > 0 && (
        // The cut holds even if the API ignores the limit.
        <PostCardList posts={state.data.slice(0, BLOG_TEASER_LIMIT)} from={HOME_BLOG_SECTION} label="Останні статті" />
      )}
      <Link to={BLOG_LISTING_PATH} className={styles.allPosts}>
        Усі статті<span aria-hidden="true"> →</span>
      </Link>
    </div>
  );
}
