import '@agency/shared/styles/tokens.css';
import BlogTeaser from '../features/blog-teaser/BlogTeaser';
import BlogPostPage from '../features/blog-post/BlogPostPage';

/** Every exposed module on one page, for developing this remote alone. */
export function StandalonePage() {
  return (
    <main>
      <BlogTeaser />
      <BlogPostPage />
    </main>
  );
}
