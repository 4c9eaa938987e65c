import { useEffect, useRef, useState } from 'react';
import {
  BLOG_LISTING_FAILED_TEXT,
  blogListingPath,
  notFoundPageMeta,
  typeset,
  type BlogListing,
  type BlogListPageProps,
} from '@agency/shared';
import { blogListingResource, useApiResource } from '@agency/shared/data';
import { Link, useLocation } from '@agency/shared/router';
import { CardPlaceholders } from '../../shared/CardPlaceholders';
import { PostCardList } from '../../shared/PostCardList';
import { useDocumentMeta } from '../../shared/use-document-meta';
import { CategoryFilter } from './CategoryFilter';
import { Pagination } from './Pagination';
import styles from './BlogListPage.module.css';

/** Placeholders while the first listing loads (later ones keep the previous listing on screen). */
const PLACEHOLDER_COUNT = 6;

/**
 * `/blog`: every post newest first as cards, filtered by category and split into pages (of
 * BLOG_PAGE_SIZE posts, the API's page size). The shell parses the address into `category` and
 * `page`; a page past the last, or of an unknown category, is "not found" (the server answers it 404).
 */
export default function BlogListPage({ category, page }: BlogListPageProps) {
  const state = useApiResource(blogListingResource({ category, page }), 'mfe-blog');
  const { pathname, search } = useLocation();
  const topRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const focusOnArrival = useRef(false);

  // While the next page or category loads, the last one stays on screen (dimmed): nothing jumps.
  const [previous, setPrevious] = useState<BlogListing | null>(null);
  if (state.status === 'loaded' && previous !== state.data) setPrevious(state.data);
  const listing = state.status === 'loaded' ? state.data : state.status === 'loading' ? previous : null;
  // Reached in the browser (a pagination link from an old page), a page past the last says so in
  // the tab too, as the server's 404 page does.
  const pageGone = state.status === 'failed' && state.notFound;
  useDocumentMeta(pageGone ? notFoundPageMeta(blogListingPath({ category, page })).title : null, null);

  // A page or category chosen here starts at the top of the listing, and screen readers start at its heading.
  const onNavigate = () => {
    focusOnArrival.current = true;
    topRef.current?.scrollIntoView({ block: 'start' });
  };
  useEffect(() => {
    if (state.status === 'loading' || !focusOnArrival.current) return;
    focusOnArrival.current = false;
    headingRef.current?.focus({ preventScroll: true });
  }, [state.status]);

  return (
    <div ref={topRef} className={styles.listing}>
      <header className={styles.header}>
        <h1 className={styles.heading} tabIndex={-1} ref={headingRef}>
          Блог
        </h1>
        <p className={styles.intro}>
          {typeset('Практичні поради з SMM, контенту, лідогенерації та аналітики, а також кейси наших клієнтів із цифрами.')}
        </p>
      </header>

      {state.status === 'failed' && state.notFound && (
        <div className={styles.message}>
          <p>Такої сторінки блогу немає.</p>
          {/* Past the last page: the first one. A first page that does not exist is an unknown category. */}
          {page > 1 ? (
            <Link to={blogListingPath({ category })} className={styles.textLink}>
              До першої сторінки
            </Link>
          ) : (
            <Link to={blogListingPath()} className={styles.textLink}>
              Переглянути всі статті
            </Link>
          )}
        </div>
      )}
      {state.status === 'failed' && !state.notFound && (
        <p className={styles.message} role="status">
          {BLOG_LISTING_FAILED_TEXT}
        </p>
      )}

      {listing === null && state.status === 'loading' && (
        // The first load: placeholders the size of cards keep the footer from jumping.
        <div aria-hidden="true">
          <div className={styles.filterPlaceholder} />
          <CardPlaceholders count={PLACEHOLDER_COUNT} testId="blog-list-placeholders" />
        </div>
      )}

      {listing !== null && (
        <div className={styles.results} aria-busy={state.status === 'loading'}>
          <CategoryFilter categories={listing.categories} active={category} onNavigate={onNavigate} />
          {listing.posts.length > 0 ? (
            <PostCardList
              posts={listing.posts}
              from={`${pathname}${search}`}
              label={category ? `Статті рубрики «${category}»` : 'Усі статті'}
              headingLevel={2}
              atTop
            />
          ) : (
            <div className={styles.message}>
              <p>{category ? `У рубриці «${category}» поки немає статей.` : 'Статей поки немає.'}</p>
              {category && (
                <Link to={blogListingPath()} className={styles.textLink} onClick={onNavigate}>
                  Переглянути всі статті
                </Link>
              )}
            </div>
          )}
          <Pagination category={category} page={listing.page} pageCount={listing.pageCount} onNavigate={onNavigate} />
        </div>
      )}
    </div>
  );
}
