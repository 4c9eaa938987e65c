import { BLOG_TEASER_LIMIT } from '@agency/shared';
import { BlogCard } from './BlogCard';
import { useTeaserPosts } from './use-teaser-posts';
import styles from './BlogTeaser.module.css';

const PLACEHOLDER_KEYS = Array.from({ length: BLOG_TEASER_LIMIT }, (_, index) => index);

/** Home section 7: the newest posts as cards linking to /blog/{id}. The shell provides the <section>. */
export default function BlogTeaser() {
  const state = useTeaserPosts();
  return (
    <div className={styles.teaser}>
      <header className={styles.header}>
        <h2 className={styles.heading}>Блог</h2>
        <p className={styles.intro}>
          Практичні поради з SMM, контенту, лідогенерації та аналітики — з досвіду наших проєктів.
        </p>
      </header>
      {state.status === 'loading' && (
        // Same-sized placeholders keep the page below from jumping when the cards arrive.
        <div className={styles.grid} aria-hidden="true" data-testid="blog-teaser-placeholders">
          {PLACEHOLDER_KEYS.map((key) => (
            <div key={key} className={styles.placeholder}>
              <div className={styles.placeholderImage} />
              <div className={styles.placeholderBody} />
            </div>
          ))}
        </div>
      )}
      {state.status === 'loaded' && state.posts.length > 0 && (
        <ul className={styles.grid} aria-label="Останні статті">
          {state.posts.map((post) => (
            <li key={post.id} className={styles.item}>
              <BlogCard post={post} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
