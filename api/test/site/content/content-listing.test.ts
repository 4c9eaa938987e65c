import { BLOG_PAGE_MAX, BLOG_PAGE_SIZE, BLOG_RELATED_LIMIT } from '@agency/shared/contracts';
import type { BlogListing, BlogPostSummary } from '@agency/shared';
import { insertBlogPost, unpublishBlogPosts } from '../../../src/site/content/content-repository';
import { startTestApp, type TestContext } from '../../helpers/app';
import { eventually } from '../../helpers/eventually';

// The blog listing and related posts, on a blog of the test's own: 14 published posts in three
// categories (more than one page) and an unpublished one whose category must not show.
let ctx: TestContext;
const ids: Record<string, number> = {};

const SEED: { slug: string; category: string; day: number }[] = [
  ...[1, 4, 7].map((day) => ({ slug: `case-${day}`, category: 'Кейси', day })),
  ...[2, 5, 8, 10, 12, 14].map((day) => ({ slug: `smm-${day}`, category: 'SMM', day })),
  ...[3, 6, 9, 11, 13].map((day) => ({ slug: `analytics-${day}`, category: 'Аналітика', day })),
];

function listing(query = ''): Promise<BlogListing> {
  return ctx.request('GET', `/api/blog/listing${query}`).then((response) => {
    expect(response.statusCode).toBe(200);
    return response.json<BlogListing>();
  });
}

const slugsOf = (posts: BlogPostSummary[]) => posts.map((post) => post.title);

beforeAll(async () => {
  ctx = await startTestApp();
  // Before any request: the content cache has nothing yet to forget.
  await ctx.db.kysely.deleteFrom('blog_posts').execute();
  for (const { slug, category, day } of [...SEED, { slug: 'draft', category: 'Чернетки', day: 20 }]) {
    ids[slug] = await insertBlogPost(ctx.db, {
      slug,
      title: slug,
      excerpt: `Про ${slug}`,
      category,
      image_url: '/media/blog/analytics.svg',
      author: 'Олена Кравчук',
      content: '<p>Текст</p>',
      created_at: new Date(Date.UTC(2026, 0, day, 9)),
    });
  }
  await unpublishBlogPosts(ctx.db, [ids.draft!]);
});

afterAll(async () => {
  await ctx.close();
});

/** Every published post's title, newest first. */
const NEWEST_FIRST = [...SEED].sort((a, b) => b.day - a.day).map((post) => post.slug);

describe('GET /api/blog/listing', () => {
  it('answers the first page newest first, with the page count, total and every category', async () => {
    const body = await listing();
    expect(Object.keys(body).sort()).toEqual(['categories', 'page', 'pageCount', 'posts', 'total']);
    expect(slugsOf(body.posts)).toEqual(NEWEST_FIRST.slice(0, BLOG_PAGE_SIZE));
    expect(body).toMatchObject({ page: 1, pageCount: 2, total: 14 });
    expect(Object.keys(body.posts[0]!).sort()).toEqual(['author', 'category', 'created_at', 'excerpt', 'id', 'image_url', 'title']);
    // Most posts first; the unpublished post's category is not there.
    expect(body.categories).toEqual([
      { name: 'SMM', count: 6 },
      { name: 'Аналітика', count: 5 },
      { name: 'Кейси', count: 3 },
    ]);
    await expect(listing('?page=1')).resolves.toEqual(body);
  });

  it('answers the next page with the rest, and the pages together are the whole blog', async () => {
    const second = await listing('?page=2');
    expect(second).toMatchObject({ page: 2, pageCount: 2, total: 14 });
    expect(slugsOf(second.posts)).toEqual(NEWEST_FIRST.slice(BLOG_PAGE_SIZE));
    const all = (await ctx.request('GET', '/api/blog')).json<BlogPostSummary[]>();
    expect([...(await listing()).posts, ...second.posts]).toEqual(all);
  });

  it('filters by category, still listing every category with its count', async () => {
    const cases = await listing(`?category=${encodeURIComponent('Кейси')}`);
    expect(slugsOf(cases.posts)).toEqual(['case-7', 'case-4', 'case-1']);
    expect(cases).toMatchObject({ page: 1, pageCount: 1, total: 3 });
    expect(cases.categories).toEqual((await listing()).categories);
    await expect(listing(`?page=1&category=${encodeURIComponent('Кейси')}`)).resolves.toEqual(cases);
  });

  it('answers 404 for a category with no published posts (unknown, or only drafts) and past the last page', async () => {
    for (const query of [
      '?category=Nope',
      `?category=${encodeURIComponent('Чернетки')}`,
      // Categories are matched exactly, as stored.
      `?category=${encodeURIComponent('кейси')}`,
      '?page=3',
      '?page=2&category=Nope',
      `?page=2&category=${encodeURIComponent('Кейси')}`,
      `?page=${BLOG_PAGE_MAX}`,
    ]) {
      const response = await ctx.request('GET', `/api/blog/listing${query}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Такої сторінки блогу немає' } });
    }
  });

  const PAGE_MESSAGE = `Параметр page має бути цілим числом від 1 до ${BLOG_PAGE_MAX}`;
  it.each([
    { label: 'page=0', query: '?page=0', fields: { page: PAGE_MESSAGE } },
    { label: 'page=01', query: '?page=01', fields: { page: PAGE_MESSAGE } },
    { label: 'page=abc', query: '?page=abc', fields: { page: PAGE_MESSAGE } },
    { label: 'an empty page', query: '?page=', fields: { page: PAGE_MESSAGE } },
    { label: 'a page over BLOG_PAGE_MAX', query: `?page=${BLOG_PAGE_MAX + 1}`, fields: { page: PAGE_MESSAGE } },
    { label: 'a category over 100 characters', query: `?category=${'к'.repeat(101)}`, fields: { category: 'Текст задовгий (максимум 100 символів)' } },
    { label: 'an empty category', query: '?category=', fields: { category: 'Заповніть це поле' } },
    { label: 'an unknown parameter', query: '?page=1&sort=old', fields: { sort: 'Невідомий параметр' } },
  ])('refuses $label with a Ukrainian 400', async ({ query, fields }) => {
    const response = await ctx.request('GET', `/api/blog/listing${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'VALIDATION_ERROR', message: 'Некоректні параметри запиту', fields } });
  });

  it('is cacheable like the other reads: a short max-age and an ETag that answers 304', async () => {
    const first = await ctx.request('GET', '/api/blog/listing?page=2');
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    const again = await ctx.request('GET', '/api/blog/listing?page=2', { headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });
});

describe('GET /api/blog/:id/related', () => {
  async function related(slug: string): Promise<string[]> {
    const response = await ctx.request('GET', `/api/blog/${ids[slug]}/related`);
    expect(response.statusCode).toBe(200);
    return slugsOf(response.json<BlogPostSummary[]>());
  }

  it(`answers up to ${BLOG_RELATED_LIMIT} other posts of the same category, newest first`, async () => {
    await expect(related('smm-2')).resolves.toEqual(['smm-14', 'smm-12', 'smm-10']);
    await expect(related('smm-14')).resolves.toEqual(['smm-12', 'smm-10', 'smm-8']);
  });

  it('fills up with the newest posts of other categories, never the post itself', async () => {
    // Two other case studies, then the newest post overall.
    await expect(related('case-4')).resolves.toEqual(['case-7', 'case-1', 'smm-14']);
  });

  it('answers 404 for an unknown, unpublished or malformed id', async () => {
    for (const id of ['999999', String(ids.draft), 'abc', '01']) {
      const response = await ctx.request('GET', `/api/blog/${id}/related`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
  });
});

// Last: it empties the blog.
it('answers the first page of an empty blog, with no categories', async () => {
  await ctx.db.kysely.deleteFrom('blog_posts').execute();
  const body = await eventually('the emptied blog', () => listing(), (value) => value.total === 0);
  expect(body).toEqual({ posts: [], page: 1, pageCount: 1, total: 0, categories: [] });
  expect((await ctx.request('GET', '/api/blog/listing?page=2')).statusCode).toBe(404);
});
