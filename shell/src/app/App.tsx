import { PAGE_ROUTES, STAFF_PATHS, STAFF_PREVIEW_PATH } from '@agency/shared';
import { Route, Routes } from '@agency/shared/router';
import { SiteHeader } from '../features/layout/SiteHeader';
import { SiteFooter } from '../features/layout/SiteFooter';
import { HomePage } from '../features/home/HomePage';
import { BlogPostRoute } from '../features/blog/BlogPostRoute';
import { BlogListRoute } from '../features/blog/BlogListRoute';
import { NotFoundPage } from '../features/not-found/NotFoundPage';
import { PrivacyPage } from '../features/privacy/PrivacyPage';
import { FormResultPage } from '../features/form-result/FormResultPage';
import { StaffPreviewRoute } from '../features/staff/StaffPreviewRoute';
import { StaffRoute } from '../features/staff/StaffRoute';
import { useScrollManagement } from '../features/navigation/use-scroll-management';
import { usePageViews } from '../features/telemetry/use-page-views';
import styles from './App.module.css';

/** The public site's frame: header, the routed page and footer. */
function PublicSite() {
  useScrollManagement();
  usePageViews();
  return (
    <div className={styles.page}>
      <a className={styles.skipLink} href="#main">
        Перейти до основного вмісту
      </a>
      <SiteHeader />
      <main id="main" className={styles.main} tabIndex={-1}>
        <Routes>
          <Route path={PAGE_ROUTES.home} element={<HomePage />} />
          <Route path={PAGE_ROUTES.blogListing} element={<BlogListRoute />} />
          <Route path={PAGE_ROUTES.blogPost} element={<BlogPostRoute />} />
          <Route path={PAGE_ROUTES.privacy} element={<PrivacyPage />} />
          <Route path={PAGE_ROUTES.formResult} element={<FormResultPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </main>
      <SiteFooter />
    </div>
  );
}

/** The public site, or the staff console under `/staff` (its own frame, its own remote) and its previews. */
export function App() {
  return (
    <Routes>
      {/* In the entry, not a chunk of its own: a chunk would have to reach the page frame's modules from
          outside, which costs every visitor more bytes than this route's own (measured). */}
      <Route path={`${STAFF_PREVIEW_PATH}/:kind`} element={<StaffPreviewRoute />} />
      <Route path={`${STAFF_PATHS.home}/*`} element={<StaffRoute />} />
      <Route path="*" element={<PublicSite />} />
    </Routes>
  );
}
