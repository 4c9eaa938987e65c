import { PAGE_ROUTES, STAFF_PATHS } from '@agency/shared';
import { Route, Routes } from '@agency/shared/router';
import { SiteHeader } from '../features/layout/SiteHeader';
import { SiteFooter } from '../features/layout/SiteFooter';
import { HomePage } from '../features/home/HomePage';
import { BlogPostRoute } from '../features/blog/BlogPostRoute';
import { BlogListRoute } from '../features/blog/BlogListRoute';
import { NotFoundPage } from '../features/not-found/NotFoundPage';
import { PrivacyPage } from '../features/privacy/PrivacyPage';
import { FormResultPage } from '../features/form-result/FormResultPage';
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

/** The public site, or the staff console under `/staff` (its own frame, its own remote). */
export function App() {
  return (
    <Routes>
      <Route path={`${STAFF_PATHS.home}/*`} element={<StaffRoute />} />
      <Route path="*" element={<PublicSite />} />
    </Routes>
  );
}
