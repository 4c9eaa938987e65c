import { useLocation } from '@agency/shared/router';
import { BLOG_LISTING_FAILED_TEXT, blogListingPageMeta, parseBlogListingSearch } from '@agency/shared';
import { RemoteSlot } from '../../frame/federation/remote-slot';
import { usePageMeta } from '../../frame/page/page-render-context';
import styles from './BlogListRoute.module.css';

/**
 * `/blog?category=…&page=…`: the blog remote's listing of the page the address asks for. One slot
 * for every page and category, so choosing another keeps the listing (and its filter) on screen.
 */
export function BlogListRoute() {
  const location = parseBlogListingSearch(useLocation().search);
  usePageMeta(blogListingPageMeta(location));
  return (
    <div className={styles.container}>
      <RemoteSlot id="blog/BlogListPage" props={location} minHeight="80vh" message={BLOG_LISTING_FAILED_TEXT} />
    </div>
  );
}
