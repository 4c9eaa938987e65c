import '@agency/shared/styles/tokens.css';
import './standalone.css';
import { HashRouter, Link, Route, Routes, useParams } from '@agency/shared/router';
import { BRAND } from '@agency/shared';
import BlogTeaser from '../features/blog-teaser/BlogTeaser';
import BlogPostPage from '../features/blog-post/BlogPostPage';

/** Mirrors the shell's /blog/:postId route: a fresh page per id. */
function StandalonePostRoute() {
  const { postId = '' } = useParams();
  return <BlogPostPage key={postId} postId={postId} />;
}

/**
 * Both exposed modules behind a tiny router, for developing this remote alone
 * (`npm run dev -w mfe-blog`). A hash router works on any static path: open `#/blog/1` for a post.
 */
export function StandalonePage() {
  return (
    <HashRouter>
      <header className="standalone-header">
        <Link to="/">{BRAND.name} — блог (розробка)</Link>
      </header>
      <main className="standalone-main">
        <Routes>
          <Route
            path="/"
            element={
              <section id="blog" aria-label="Блог" className="standalone-section">
                <BlogTeaser />
              </section>
            }
          />
          <Route
            path="/blog/:postId"
            element={
              <div className="standalone-post">
                <StandalonePostRoute />
              </div>
            }
          />
        </Routes>
      </main>
    </HashRouter>
  );
}
