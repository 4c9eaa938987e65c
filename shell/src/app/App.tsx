import { PAGE_ROUTES, STAFF_PATHS, STAFF_PREVIEW_PATH } from '@agency/shared';
import { Route, Routes } from '@agency/shared/router';
import { SiteHeader } from '../frame/layout/SiteHeader';
import { SiteFooter } from '../frame/layout/SiteFooter';
import { HomePage } from '../pages/home/HomePage';
import { BlogPostRoute } from '../pages/blog/BlogPostRoute';
import { BlogListRoute } from '../pages/blog/BlogListRoute';
import { NotFoundPage } from '../pages/not-found/NotFoundPage';
import { PrivacyPage } from '../pages/privacy/PrivacyPage';
import { FormResultPage } from '../pages/form-result/FormResultPage';
import { StaffPreviewRoute } from '../pages/staff/StaffPreviewRoute';
import { StaffRoute } from '../pages/staff/StaffRoute';
import { useScrollManagement } from '../frame/navigation/use-scroll-management';
import { usePageViews } from '../frame/telemetry/use-page-views';
import styles from '../frame/layout/page-frame.module.css';

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
