import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from '@agency/shared/router';
import { AxiosError, AxiosHeaders } from 'axios';
import type { BlogPost, BlogPostSummary } from '@agency/shared';
import { fetchBlogPost, fetchRelatedPosts } from '@agency/shared/api-client';
import BlogPostPage from './BlogPostPage';

jest.mock('@agency/shared/api-client', () => ({
  ...jest.requireActual('@agency/shared/api-client'),
  fetchBlogPost: jest.fn(),
  fetchRelatedPosts: jest.fn(),
}));
const mockedFetchBlogPost = jest.mocked(fetchBlogPost);
const mockedFetchRelated = jest.mocked(fetchRelatedPosts);

const POST: BlogPost = {
  id: 12,
  title: 'Скільки насправді коштує лід',
  excerpt: 'Як рахувати вартість заявки разом із якістю.',
  category: 'Лідогенерація',
  image_url: '/media/blog/lead-cost.svg',
  created_at: '2026-03-15T10:00:00Z',
  author: 'Андрій Мельник',
  content: '<h2>Вартість ліда</h2><p>Перший абзац статті.</p><ul><li>CPQL</li><li>CAC</li></ul>',
};

const HOME_TITLE = 'Хвиля — діджитал-агенція у Львові';
const HOME_DESCRIPTION = 'Діджитал-агенція «Хвиля» зі Львова.';

function httpError(status: number): AxiosError {
  const config = { headers: new AxiosHeaders() };
  return new AxiosError(`Request failed with status code ${status}`, 'ERR_BAD_RESPONSE', config, {}, {
    status,
    statusText: '',
    headers: {},
    config,
    data: { error: { code: 'NOT_FOUND', message: 'Not found' } },
  });
}

function related(id: number, category: string): BlogPostSummary {
  const { content: _content, ...summary } = POST;
  return { ...summary, id, category, title: `Схожа стаття ${id}` };
}

/** `from`: where the visitor opened the post, as a card's link carries it in history state. */
function renderPage(postId = '12', from?: string) {
  return render(
    <MemoryRouter initialEntries={[{ pathname: `/blog/${postId}`, state: from === undefined ? null : { from } }]}>
      <BlogPostPage postId={postId} />
    </MemoryRouter>,
  );
}

function metaDescription(): string | null | undefined {
  return document.head.querySelector('meta[name="description"]')?.getAttribute('content');
}

let consoleError: jest.SpyInstance;

beforeEach(() => {
  mockedFetchBlogPost.mockReset();
  mockedFetchRelated.mockReset();
  mockedFetchRelated.mockResolvedValue([]);
  consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
  document.head.innerHTML = `<meta name="description" content="${HOME_DESCRIPTION}">`;
  document.title = HOME_TITLE;
});

afterEach(() => {
  consoleError.mockRestore();
});

describe('BlogPostPage', () => {
  it('shows the loading text while the post is on its way', () => {
    mockedFetchBlogPost.mockReturnValue(new Promise(() => {}));
    renderPage('12');
    expect(screen.getByRole('status')).toHaveTextContent('Завантаження…');
    expect(mockedFetchBlogPost).toHaveBeenCalledWith('12');
    expect(screen.queryByText('Стаття не знайдена')).not.toBeInTheDocument();
  });

  it('shows the loaded post: image, category, title, uk-UA date, author, HTML content and a back link', async () => {
    mockedFetchBlogPost.mockResolvedValue(POST);
    renderPage('12');

    const heading = await screen.findByRole('heading', { level: 1, name: POST.title });
    expect(screen.queryByText('Завантаження…')).not.toBeInTheDocument();

    const image = screen.getByRole('img', { name: `Ілюстрація до статті «${POST.title}»` });
    expect(image).toHaveAttribute('src', POST.image_url);
    expect(image).toHaveAttribute('width');
    expect(image).toHaveAttribute('height');
    expect(screen.getByText('Лідогенерація')).toBeInTheDocument();
    expect(screen.getByText('15 березня 2026 р.')).toHaveAttribute('dateTime', POST.created_at);
    expect(screen.getByText(/Андрій Мельник/)).toBeInTheDocument();

    // The content is rendered as markup, not shown as text.
    const content = screen.getByTestId('blog-post-content');
    expect(within(content).getByRole('heading', { level: 2, name: 'Вартість ліда' })).toBeInTheDocument();
    expect(within(content).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['CPQL', 'CAC']);
    expect(content).not.toHaveTextContent('<h2>');

    // Opened with no known origin (its address typed or shared): back home.
    expect(screen.getByRole('link', { name: 'Повернутися на головну' })).toHaveAttribute('href', '/');
    expect(heading).toHaveFocus();
  });

  it.each([
    ["the home's blog section", '/#blog', 'Повернутися на головну'],
    ['the listing', '/blog?page=2', 'До всіх статей'],
    ['a category of the listing', '/blog?category=%D0%9A%D0%B5%D0%B9%D1%81%D0%B8&page=2', 'До статей рубрики «Кейси»'],
  ])('leads back to %s it was opened from', async (_label, from, name) => {
    mockedFetchBlogPost.mockResolvedValue(POST);
    renderPage('12', from);
    await screen.findByRole('heading', { level: 1, name: POST.title });
    expect(screen.getByRole('link', { name })).toHaveAttribute('href', from);
  });

  it('ignores an origin that is not an address on this site', async () => {
    mockedFetchBlogPost.mockResolvedValue(POST);
    renderPage('12', '//evil.example/blog');
    await screen.findByRole('heading', { level: 1, name: POST.title });
    expect(screen.getByRole('link', { name: 'Повернутися на головну' })).toHaveAttribute('href', '/');
  });

  it('shows the related posts under the post, each leading on with the same origin', async () => {
    mockedFetchBlogPost.mockResolvedValue(POST);
    mockedFetchRelated.mockResolvedValue([related(7, POST.category), related(3, 'SMM')]);
    renderPage('12', '/#blog');
    const section = await screen.findByRole('region', { name: 'Читайте також' });
    expect(mockedFetchRelated).toHaveBeenCalledWith('12');
    expect(within(section).getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)).toEqual([
      'Схожа стаття 7',
      'Схожа стаття 3',
    ]);
    expect(within(section).getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual(['/blog/7', '/blog/3']);
  });

  it('shows the post without related posts when they fail to load', async () => {
    const failure = new Error('Network Error');
    mockedFetchBlogPost.mockResolvedValue(POST);
    mockedFetchRelated.mockRejectedValue(failure);
    renderPage('12');
    await screen.findByRole('heading', { level: 1, name: POST.title });
    await waitFor(() => expect(consoleError).toHaveBeenCalledWith(expect.stringContaining('/related'), failure));
    expect(screen.queryByRole('region', { name: 'Читайте також' })).not.toBeInTheDocument();
  });

  it('sets the title and description from the post and restores the home ones on leaving', async () => {
    mockedFetchBlogPost.mockResolvedValue(POST);
    const { unmount } = renderPage('12');
    await screen.findByRole('heading', { level: 1 });

    expect(document.title).toContain(POST.title);
    expect(metaDescription()).toBe(POST.excerpt);

    unmount();
    expect(document.title).toBe(HOME_TITLE);
    expect(metaDescription()).toBe(HOME_DESCRIPTION);
  });

  it.each([
    ['404', httpError(404)],
    ['500', httpError(500)],
    ['a network error', new AxiosError('Network Error', AxiosError.ERR_NETWORK)],
  ])('shows "Стаття не знайдена" and logs the failure on %s', async (_label, failure) => {
    mockedFetchBlogPost.mockRejectedValue(failure);
    renderPage('12');

    const heading = await screen.findByRole('heading', { level: 1, name: 'Стаття не знайдена' });
    expect(heading).toHaveFocus();
    expect(screen.queryByText('Завантаження…')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Повернутися на головну' })).toHaveAttribute('href', '/');
    expect(consoleError).toHaveBeenCalledWith(expect.stringContaining('12'), failure);
    expect(document.title).toContain('Стаття не знайдена');
  });

  it('treats a malformed id like an unknown one', async () => {
    mockedFetchBlogPost.mockRejectedValue(httpError(404));
    renderPage('abc');
    expect(await screen.findByText('Стаття не знайдена')).toBeInTheDocument();
    expect(mockedFetchBlogPost).toHaveBeenCalledWith('abc');
  });

  describe('hostile content', () => {
    const FLAG = '__blogXssRan';
    const flags = window as unknown as Record<string, unknown>;

    afterEach(() => {
      delete flags[FLAG];
    });

    it('renders without running anything: no script, no handler, no javascript: URL', async () => {
      mockedFetchBlogPost.mockResolvedValue({
        ...POST,
        content: [
          '<p>Безпечний текст</p>',
          `<img src="x" alt="картинка" onerror="window.${FLAG} = true">`,
          `<script>window.${FLAG} = true</script>`,
          `<a href="javascript:window.${FLAG}=true">Небезпечне посилання</a>`,
          `<p onclick="window.${FLAG} = true">Клікабельний абзац</p>`,
          '<a href="https://example.com/" target="_blank">Зовнішнє посилання</a>',
        ].join(''),
      });
      renderPage('12');
      const content = await screen.findByTestId('blog-post-content');

      expect(within(content).getByText('Безпечний текст')).toBeInTheDocument();
      expect(content.querySelector('script')).toBeNull();
      expect(content.querySelector('[onerror], [onclick]')).toBeNull();
      const dangerous = within(content).getByText('Небезпечне посилання');
      expect(dangerous.getAttribute('href') ?? '').not.toMatch(/javascript:/i);
      expect(within(content).getByRole('link', { name: 'Зовнішнє посилання' })).toHaveAttribute(
        'rel',
        'noopener noreferrer',
      );

      // Give every would-be trigger its chance: a failed image load and clicks.
      content.querySelectorAll('img').forEach((image) => fireEvent.error(image));
      fireEvent.click(dangerous);
      fireEvent.click(within(content).getByText('Клікабельний абзац'));
      await waitFor(() => expect(flags[FLAG]).toBeUndefined());
    });
  });
});
