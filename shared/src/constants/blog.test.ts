import { BLOG_PAGE_MAX } from '../contracts/limits';
import { blogListingPath, CASE_STUDIES_CATEGORY, parseBlogListingSearch } from './blog';

describe('blogListingPath', () => {
  it('is /blog for the first page of every post, leaving defaults out', () => {
    expect(blogListingPath()).toBe('/blog');
    expect(blogListingPath({ category: null, page: 1 })).toBe('/blog');
  });

  it('encodes the category and adds pages after the first', () => {
    expect(blogListingPath({ category: CASE_STUDIES_CATEGORY })).toBe('/blog?category=%D0%9A%D0%B5%D0%B9%D1%81%D0%B8');
    expect(blogListingPath({ page: 3 })).toBe('/blog?page=3');
    expect(blogListingPath({ category: 'A&B', page: 2 })).toBe('/blog?category=A%26B&page=2');
  });
});

describe('parseBlogListingSearch', () => {
  it('reads what blogListingPath writes', () => {
    for (const location of [
      { category: null, page: 1 },
      { category: CASE_STUDIES_CATEGORY, page: 1 },
      { category: 'A&B + C', page: 12 },
    ]) {
      const search = blogListingPath(location).slice('/blog'.length);
      expect(parseBlogListingSearch(search)).toEqual(location);
    }
  });

  it('falls back to the first page for a page number that is not one', () => {
    for (const page of ['0', '01', '-2', '1.5', 'abc', '', String(BLOG_PAGE_MAX + 1)]) {
      expect(parseBlogListingSearch(`?page=${page}`)).toEqual({ category: null, page: 1 });
    }
    expect(parseBlogListingSearch(`?page=${BLOG_PAGE_MAX}`).page).toBe(BLOG_PAGE_MAX);
  });

  it('treats an empty or over-long category as every post', () => {
    expect(parseBlogListingSearch('?category=').category).toBeNull();
    expect(parseBlogListingSearch('?category=%20%20').category).toBeNull();
    expect(parseBlogListingSearch(`?category=${'к'.repeat(101)}`).category).toBeNull();
    expect(parseBlogListingSearch('').category).toBeNull();
  });
});
