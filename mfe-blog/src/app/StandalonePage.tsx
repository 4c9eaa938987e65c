import '@agency/shared/styles/tokens.css';
import './standalone.css';
import { HashRouter, Link, Route, Routes, useLocation, useParams } from '@agency/shared/router';
import { BRAND, parseBlogListingSearch } from '@agency/shared';
import BlogTeaser from '../features/blog-teaser/BlogTeaser';
import BlogPostPage from '../features/blog-post/BlogPostPage';
import BlogListPage from '../features/blog-list/BlogListPage';

/** Mirrors the shell's /blog/:postId route: a fresh page per id. */
function StandalonePostRoute() {
  const { postId = '' } = useParams();
  return <BlogPostPage key={postId} postId={postId} />;
}

/** Mirrors the shell's /blog route: the listing page the address asks for. */
function StandaloneListRoute() {
  const { category, page } = parseBlogListingSearch(useLocation().search);
  return <BlogListPage category={category} page={page} />;
}

/**
 * Every exposed module behind a tiny router, for developing this remote alone
 * (`npm run dev -w mfe-blog`). A hash router works on any static path: open `#/blog` for the listing, `#/blog/1` for a post.
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
            path="/blog"
            element={
              <div className="standalone-section">
                <StandaloneListRoute />
              </div>
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
