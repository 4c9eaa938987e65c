import { blogListingPath } from '@agency/shared';
import { Link } from '@agency/shared/router';
import hidden from '../../shared/visually-hidden.module.css';
import styles from './BlogListPage.module.css';

interface PaginationProps {
  category: string | null;
  page: number;
  pageCount: number;
  onNavigate: () => void;
}

/**
 * The page numbers to show: all of them when there are few, else the first, the last and the
 * current one's neighbours, with `null` for each gap.
 */
export function pageWindow(page: number, pageCount: number): (number | null)[] {
  const pages: (number | null)[] = [];
  for (let number = 1; number <= pageCount; number += 1) {
    const shown = pageCount <= 7 || number === 1 || number === pageCount || Math.abs(number - page) <= 1;
    if (shown) pages.push(number);
    else if (pages.at(-1) !== null) pages.push(null);
  }
  return pages;
}

/** Previous, the page numbers and next, as links; shown only when there is more than one page. */
export function Pagination({ category, page, pageCount, onNavigate }: PaginationProps) {
  if (pageCount <= 1) return null;
  const linkTo = (number: number) => blogListingPath({ category, page: number });
  return (
    <nav aria-label="Сторінки блогу" className={styles.pagination}>
      {page > 1 && (
        <Link to={linkTo(page - 1)} className={styles.pageStep} rel="prev" onClick={onNavigate}>
          <span aria-hidden="true">← </span>Попередня
        </Link>
      )}
      <ul className={styles.pageList}>
        {pageWindow(page, pageCount).map((number, index) =>
          number === null ? (
            <li key={`gap-${index}`} aria-hidden="true" className={styles.pageGap}>
              …
            </li>
          ) : (
            <li key={number}>
              <Link
                to={linkTo(number)}
                className={styles.pageLink}
                aria-current={number === page ? 'page' : undefined}
                onClick={onNavigate}
              >
                <span className={hidden.visuallyHidden}>Сторінка </span>
                {number}
              </Link>
            </li>
          ),
        )}
      </ul>
      {page < pageCount && (
        <Link to={linkTo(page + 1)} className={styles.pageStep} rel="next" onClick={onNavigate}>
          Наступна<span aria-hidden="true"> →</span>
        </Link>
      )}
    </nav>
  );
}
