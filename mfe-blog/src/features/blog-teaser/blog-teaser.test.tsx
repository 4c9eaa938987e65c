import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from '@agency/shared/router';
import type { BlogPostSummary } from '@agency/shared';
import { fetchBlogPosts } from '@agency/shared/api-client';
import BlogTeaser from './BlogTeaser';

jest.mock('@agency/shared/api-client', () => ({
  ...jest.requireActual('@agency/shared/api-client'),
  fetchBlogPosts: jest.fn(),
}));
const mockedFetchBlogPosts = jest.mocked(fetchBlogPosts);

function makePost(id: number, overrides: Partial<BlogPostSummary> = {}): BlogPostSummary {
  return {
    id,
    title: `Стаття номер ${id}`,
    excerpt: `Короткий опис статті ${id}.`,
    category: 'SMM',
    image_url: `/media/blog/post-${id}.svg`,
    created_at: '2026-03-15T10:00:00Z',
    author: 'Олена Кравчук',
    ...overrides,
  };
}

function PostProbe() {
  return <p data-testid="post-state">{JSON.stringify(useLocation().state)}</p>;
}

function renderTeaser() {
  return render(
    <MemoryRouter>
      <Routes>
        <Route path="/" element={<BlogTeaser />} />
        <Route path="/blog/:postId" element={<PostProbe />} />
      </Routes>
    </MemoryRouter>,
  );
}

let consoleError: jest.SpyInstance;

beforeEach(() => {
  mockedFetchBlogPosts.mockReset();
  consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  consoleError.mockRestore();
});

describe('BlogTeaser', () => {
  it('asks the API for the first 3 posts', async () => {
    mockedFetchBlogPosts.mockResolvedValue([makePost(1)]);
    renderTeaser();
    await screen.findByRole('link', { name: /Читати далі/ });
    expect(mockedFetchBlogPosts).toHaveBeenCalledTimes(1);
    expect(mockedFetchBlogPosts).toHaveBeenCalledWith(3);
  });

  it('shows a card per post with image, category, title, excerpt, date and a read-more link', async () => {
    mockedFetchBlogPosts.mockResolvedValue([
      makePost(7, { title: 'Як скласти контент-план', category: 'Контент', excerpt: 'Покроковий підхід.' }),
    ]);
    renderTeaser();

    const card = await screen.findByRole('article', { name: 'Як скласти контент-план' });
    const image = within(card).getByRole('img', { name: 'Ілюстрація до статті «Як скласти контент-план»' });
    expect(image).toHaveAttribute('src', '/media/blog/post-7.svg');
    expect(image).toHaveAttribute('width');
    expect(image).toHaveAttribute('height');
    expect(within(card).getByText('Контент')).toBeInTheDocument();
    expect(within(card).getByRole('heading', { level: 3, name: 'Як скласти контент-план' })).toBeInTheDocument();
    expect(within(card).getByText('Покроковий підхід.')).toBeInTheDocument();
    expect(within(card).getByText('15 березня 2026 р.')).toHaveAttribute('dateTime', '2026-03-15T10:00:00Z');

    const links = within(card).getAllByRole('link');
    expect(links).toHaveLength(1);
    expect(links[0]).toHaveTextContent('Читати далі');
    expect(links[0]).toHaveAttribute('href', '/blog/7');
  });

  it('shows a post the card has only an id and a title for, and leaves out (and logs) a malformed one', async () => {
    const malformed = { ...makePost(2), id: 'два' };
    mockedFetchBlogPosts.mockResolvedValue([{ id: 1, title: 'Лише заголовок' }, malformed, makePost(3)] as BlogPostSummary[]);
    renderTeaser();

    const links = await screen.findAllByRole('link', { name: /Читати далі/ });
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/blog/1', '/blog/3']);
    const bare = screen.getByRole('article', { name: 'Лише заголовок' });
    expect(within(bare).queryByRole('img')).not.toBeInTheDocument();
    expect(within(bare).queryByRole('time')).not.toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: 'Стаття номер 3' })).getByRole('time')).toBeInTheDocument();
    expect(bare).not.toHaveTextContent('Invalid');
    expect(consoleError).toHaveBeenCalledWith(expect.stringContaining('left out 1 malformed item(s)'), [malformed]);
  });

  it('shows only the first 3 posts even when the API returns more', async () => {
    mockedFetchBlogPosts.mockResolvedValue([1, 2, 3, 4, 5].map((id) => makePost(id)));
    renderTeaser();

    const links = await screen.findAllByRole('link', { name: /Читати далі/ });
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/blog/1', '/blog/2', '/blog/3']);
    expect(screen.queryByText('Стаття номер 4')).not.toBeInTheDocument();
    expect(screen.queryByText('Стаття номер 5')).not.toBeInTheDocument();
  });

  it('links to every post under the cards', async () => {
    mockedFetchBlogPosts.mockResolvedValue([makePost(1)]);
    renderTeaser();
    await screen.findByRole('article');
    expect(screen.getByRole('link', { name: 'Усі статті' })).toHaveAttribute('href', '/blog');
  });

  it("lets a card carry the home's blog section, so the post can lead back to it", async () => {
    mockedFetchBlogPosts.mockResolvedValue([makePost(4)]);
    renderTeaser();
    fireEvent.click(await screen.findByRole('link', { name: /Читати далі/ }));
    expect(JSON.parse(screen.getByTestId('post-state').textContent ?? '')).toEqual({ from: '/#blog' });
  });

  it('keeps the space of the cards while loading, without cards', () => {
    mockedFetchBlogPosts.mockReturnValue(new Promise(() => {}));
    renderTeaser();
    expect(screen.getByRole('heading', { level: 2, name: 'Блог' })).toBeInTheDocument();
    expect(screen.getByTestId('blog-teaser-placeholders')).toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
  });

  it('logs a failed load and shows no cards and no error to the visitor', async () => {
    const failure = new Error('Network Error');
    mockedFetchBlogPosts.mockRejectedValue(failure);
    renderTeaser();

    await waitFor(() => expect(consoleError).toHaveBeenCalledWith(expect.stringContaining('blog'), failure));
    expect(screen.queryByTestId('blog-teaser-placeholders')).not.toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
    // The way to every post stays: it is navigation, not the failed list.
    expect(screen.getAllByRole('link').map((link) => link.textContent)).toEqual(['Усі статті →']);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText(/помилк/i)).not.toBeInTheDocument();
  });
});
