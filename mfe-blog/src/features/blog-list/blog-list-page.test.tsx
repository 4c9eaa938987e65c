import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from '@agency/shared/router';
import { notFoundPageMeta, parseBlogListingSearch, type BlogListing, type BlogPostSummary } from '@agency/shared';
import { fetchBlogListing } from '@agency/shared/api-client';
import BlogListPage from './BlogListPage';
import { pageWindow } from './Pagination';
import { FIRST_ROW_CARDS } from '../../shared/PostCardList';

jest.mock('@agency/shared/api-client', () => ({
  ...jest.requireActual('@agency/shared/api-client'),
  fetchBlogListing: jest.fn(),
}));
const mockedFetchListing = jest.mocked(fetchBlogListing);

const CASES = 'Кейси';
const CASES_QUERY = encodeURIComponent(CASES);

function makePost(id: number, category = 'SMM'): BlogPostSummary {
  return {
    id,
    title: `Стаття номер ${id}`,
    excerpt: `Короткий опис статті ${id}.`,
    category,
    image_url: `/media/posts/post-${id}.svg`,
    created_at: `2026-03-${String(10 + (id % 18)).padStart(2, '0')}T10:00:00.000Z`,
    author: 'Олена Кравчук',
  };
}

const CATEGORIES = [
  { name: 'SMM', count: 10 },
  { name: CASES, count: 3 },
];

function listing(overrides: Partial<BlogListing> = {}): BlogListing {
  return { posts: [makePost(3), makePost(2), makePost(1)], page: 1, pageCount: 1, total: 3, categories: CATEGORIES, ...overrides };
}

/** The shell's /blog route: the listing the address asks for; a post route shows the link's state. */
function ListRoute() {
  const { category, page } = parseBlogListingSearch(useLocation().search);
  return <BlogListPage category={category} page={page} />;
}
function PostProbe() {
  return <p data-testid="post-state">{JSON.stringify(useLocation().state)}</p>;
}

function renderAt(url: string) {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/blog" element={<ListRoute />} />
        <Route path="/blog/:postId" element={<PostProbe />} />
      </Routes>
    </MemoryRouter>,
  );
}

let consoleError: jest.SpyInstance;
let scrollIntoView: jest.Mock;

beforeEach(() => {
  mockedFetchListing.mockReset();
  consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
  scrollIntoView = jest.fn();
  Element.prototype.scrollIntoView = scrollIntoView;
});

afterEach(() => consoleError.mockRestore());

describe('BlogListPage', () => {
  it('asks the API for the page and category of the address', async () => {
    mockedFetchListing.mockResolvedValue(listing());
    renderAt(`/blog?category=${CASES_QUERY}&page=2`);
    await screen.findAllByRole('article');
    expect(mockedFetchListing).toHaveBeenCalledWith(`/blog/listing?page=2&category=${CASES_QUERY}`);
  });

  it('shows every post of the answer as a card, in its order (newest first), under the h1', async () => {
    mockedFetchListing.mockResolvedValue(listing());
    renderAt('/blog');
    expect(screen.getByRole('heading', { level: 1, name: 'Блог' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Усі статті' });
    const titles = within(list).getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(titles).toEqual(['Стаття номер 3', 'Стаття номер 2', 'Стаття номер 1']);
    const links = within(list).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/blog/3', '/blog/2', '/blog/1']);
    // One page: no pagination.
    expect(screen.queryByRole('navigation', { name: 'Сторінки блогу' })).not.toBeInTheDocument();
  });

  it('loads the first row’s covers at once, with priority (the page’s largest paint is one of them), the others when near', async () => {
    const posts = [5, 4, 3, 2, 1].map((id) => makePost(id));
    mockedFetchListing.mockResolvedValue(listing({ posts, total: posts.length }));
    renderAt('/blog');
    const list = await screen.findByRole('list', { name: 'Усі статті' });
    const covers = within(list).getAllByRole('img');
    expect(covers.map((cover) => [cover.getAttribute('loading'), cover.getAttribute('fetchpriority')])).toEqual([
      ...Array.from({ length: FIRST_ROW_CARDS }, () => ['eager', 'high']),
      ...Array.from({ length: posts.length - FIRST_ROW_CARDS }, () => ['lazy', 'auto']),
    ]);
  });

  it('filters by category: "Усі" and each category with its count, the shown one marked current', async () => {
    mockedFetchListing.mockResolvedValue(listing({ posts: [makePost(5, CASES)], total: 1 }));
    renderAt(`/blog?category=${CASES_QUERY}`);
    const filter = await screen.findByRole('navigation', { name: 'Рубрики блогу' });
    const links = within(filter).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Усі 13', '/blog'],
      ['SMM 10', '/blog?category=SMM'],
      [`${CASES} 3`, `/blog?category=${CASES_QUERY}`],
    ]);
    expect(within(filter).getByRole('link', { current: 'page' })).toHaveTextContent(CASES);
    expect(screen.getByRole('list', { name: `Статті рубрики «${CASES}»` })).toBeInTheDocument();
  });

  it('paginates past one page: previous, numbers and next keep the category', async () => {
    mockedFetchListing.mockResolvedValue(listing({ page: 2, pageCount: 3, total: 30 }));
    renderAt(`/blog?category=SMM&page=2`);
    const pages = await screen.findByRole('navigation', { name: 'Сторінки блогу' });
    expect(within(pages).getByRole('link', { name: /Попередня/ })).toHaveAttribute('href', '/blog?category=SMM');
    expect(within(pages).getByRole('link', { name: /Наступна/ })).toHaveAttribute('href', '/blog?category=SMM&page=3');
    expect(within(pages).getByRole('link', { current: 'page' })).toHaveAccessibleName('Сторінка 2');
    expect(within(pages).getByRole('link', { name: 'Сторінка 3' })).toHaveAttribute('href', '/blog?category=SMM&page=3');
  });

  it('changes page in place: scrolls to the listing top and keeps the cards until the next arrive', async () => {
    let resolveSecond!: (value: BlogListing) => void;
    mockedFetchListing
      .mockResolvedValueOnce(listing({ pageCount: 2, total: 4 }))
      .mockReturnValueOnce(new Promise((resolve) => (resolveSecond = resolve)));
    renderAt('/blog');
    const pages = await screen.findByRole('navigation', { name: 'Сторінки блогу' });
    fireEvent.click(within(pages).getByRole('link', { name: /Наступна/ }));

    expect(scrollIntoView).toHaveBeenCalledWith({ block: 'start' });
    expect(mockedFetchListing).toHaveBeenLastCalledWith('/blog/listing?page=2');
    expect(screen.getAllByRole('article')).toHaveLength(3);
    expect(screen.getByRole('list', { name: 'Усі статті' }).closest('[aria-busy]')).toHaveAttribute('aria-busy', 'true');

    await act(async () => resolveSecond(listing({ posts: [makePost(9)], page: 2, pageCount: 2, total: 4 })));
    expect(screen.getAllByRole('article')).toHaveLength(1);
    expect(screen.getByRole('heading', { level: 1 })).toHaveFocus();
  });

  it('lets a card carry the listing address, so the post can lead back to it', async () => {
    mockedFetchListing.mockResolvedValue(listing({ page: 2, pageCount: 2 }));
    renderAt(`/blog?category=SMM&page=2`);
    const [first] = await screen.findAllByRole('link', { name: /Читати далі/ });
    fireEvent.click(first!);
    expect(JSON.parse(screen.getByTestId('post-state').textContent ?? '')).toEqual({ from: '/blog?category=SMM&page=2' });
  });

  it('says so when a category has no posts, with a way to every post', async () => {
    mockedFetchListing.mockResolvedValue(listing({ posts: [], total: 0 }));
    renderAt('/blog?category=Nope');
    expect(await screen.findByText('У рубриці «Nope» поки немає статей.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Переглянути всі статті' })).toHaveAttribute('href', '/blog');
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
  });

  it('keeps the space of the cards while the first listing loads', () => {
    mockedFetchListing.mockReturnValue(new Promise(() => {}));
    renderAt('/blog');
    expect(screen.getByRole('heading', { level: 1, name: 'Блог' })).toBeInTheDocument();
    expect(screen.getByTestId('blog-list-placeholders')).toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
  });

  it('says a page past the last does not exist, with a way to the first', async () => {
    const notFound = Object.assign(new Error('Request failed with status code 404'), { response: { status: 404 } });
    mockedFetchListing.mockRejectedValue(notFound);
    renderAt('/blog?category=SMM&page=99');
    expect(await screen.findByText('Такої сторінки блогу немає.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'До першої сторінки' })).toHaveAttribute('href', '/blog?category=SMM');
    expect(document.title).toBe(notFoundPageMeta('/blog?category=SMM&page=99').title);
  });

  it('says an unknown category does not exist, with a way to every post', async () => {
    const notFound = Object.assign(new Error('Request failed with status code 404'), { response: { status: 404 } });
    mockedFetchListing.mockRejectedValue(notFound);
    renderAt('/blog?category=Fake');
    expect(await screen.findByText('Такої сторінки блогу немає.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Переглянути всі статті' })).toHaveAttribute('href', '/blog');
    expect(document.title).toBe(notFoundPageMeta('/blog?category=Fake').title);
    expect(document.title).not.toContain('Fake');
  });

  it('logs any other failure and says the posts could not be loaded', async () => {
    const failure = new Error('Network Error');
    mockedFetchListing.mockRejectedValue(failure);
    renderAt('/blog');
    expect(await screen.findByRole('status')).toHaveTextContent('Не вдалося завантажити статті');
    expect(consoleError).toHaveBeenCalledWith(expect.stringContaining('/api/blog/listing?page=1'), failure);
  });
});

describe('pageWindow', () => {
  it('lists every page when there are few', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('keeps the first, the last and the neighbours of the current page, with gaps', () => {
    expect(pageWindow(1, 20)).toEqual([1, 2, null, 20]);
    expect(pageWindow(10, 20)).toEqual([1, null, 9, 10, 11, null, 20]);
    expect(pageWindow(20, 20)).toEqual([1, null, 19, 20]);
  });
});
