import { Route, Routes } from '@agency/shared/router';
import { PRIVACY_PATH } from '@agency/shared';
import { SiteHeader } from '../features/layout/SiteHeader';
import { SiteFooter } from '../features/layout/SiteFooter';
import { HomePage } from '../features/home/HomePage';
import { BlogPostRoute } from '../features/blog/BlogPostRoute';
import { BlogListRoute } from '../features/blog/BlogListRoute';
import { NotFoundPage } from '../features/not-found/NotFoundPage';
import { PrivacyPage } from '../features/privacy/PrivacyPage';
import { useScrollManagement } from '../features/navigation/use-scroll-management';
import styles from './App.module.css';

/** The page frame: header, the routed page and footer. */
export function App() {
  useScrollManagement();
  return (
    <div className={styles.page}>
      <a className={styles.skipLink} href="#main">
        Перейти до основного вмісту
      </a>
      <SiteHeader />
      <main id="main" className={styles.main} tabIndex={-1}>
        <Routes>
          <Route path="/" element={<HomePage />} />
          <Route path="/blog" element={<BlogListRoute />} />
          <Route path="/blog/:postId" element={<BlogPostRoute />} />
          <Route path={PRIVACY_PATH} element={<PrivacyPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </main>
      <SiteFooter />
    </div>
  );
}
