import type { CSSProperties } from 'react';
import { Route, Routes } from '@agency/shared/router';
import { ToastContainer } from 'react-toastify';
import 'react-toastify/dist/ReactToastify.css';
import { PRIVACY_PATH, TOAST_CONTAINER, TOAST_GAP_PX, TOAST_WIDTH_PX } from '@agency/shared';
import { SiteHeader } from '../features/layout/SiteHeader';
import { SiteFooter } from '../features/layout/SiteFooter';
import { HomePage } from '../features/home/HomePage';
import { BlogPostRoute } from '../features/blog/BlogPostRoute';
import { BlogListRoute } from '../features/blog/BlogListRoute';
import { NotFoundPage } from '../features/not-found/NotFoundPage';
import { PrivacyPage } from '../features/privacy/PrivacyPage';
import { useScrollManagement } from '../features/navigation/use-scroll-management';
import styles from './App.module.css';

// Spec section 9: toast width and the gap between toasts, from the shared constants.
const TOAST_SIZE = {
  '--toastify-toast-width': `${TOAST_WIDTH_PX}px`,
  '--toast-gap': `${TOAST_GAP_PX}px`,
} as CSSProperties;

/** The page frame: header, the routed page, footer and the one toast host of the site. */
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
      <ToastContainer {...TOAST_CONTAINER} className={styles.toasts} style={TOAST_SIZE} />
    </div>
  );
}
