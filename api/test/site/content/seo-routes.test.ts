import { BRAND, SITE_ICONS, type BlogPostSummary } from '@agency/shared';
import { BLOG_LIMIT_MAX } from '@agency/shared/contracts';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/app';
import { insertBlogPost, listBlogPosts } from '../../../src/site/content/content-repository';
import { sitemapXml } from '../../../src/site/content/seo-routes';
import { startTestApp, testConfig, type TestContext } from '../../helpers/app';
import { httpRequest, type HttpRequestOptions, type HttpResponse } from '../../helpers/http';

const SITE_URL = 'https://khvylia.com.ua';
const SITEMAP_NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';
/** The form Date#toISOString gives, which is a W3C date-time. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface SitemapUrl {
  loc: string;
  lastmod?: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * A strict reader of the sitemap's small XML subset: the declaration, then exactly
 * `<urlset xmlns=…>` of `<url>` elements, each with one `<loc>` and at most one `<lastmod>`,
 * properly nested, with no stray text and only the five predefined entities. Throws otherwise.
 */
function readSitemap(xml: string): SitemapUrl[] {
  const declaration = '<?xml version="1.0" encoding="UTF-8"?>';
  if (!xml.startsWith(declaration)) throw new Error('missing XML declaration');
  const tokens = xml.slice(declaration.length).match(/<[^>]*>|[^<]+/g) ?? [];
  const stack: string[] = [];
  const urls: SitemapUrl[] = [];
  let roots = 0;
  let current: Record<string, string[]> | undefined;
  let text = '';
  for (const token of tokens) {
    if (!token.startsWith('<')) {
      if (/&(?!(?:amp|lt|gt|quot|apos);)/.test(token)) throw new Error(`unescaped & in ${JSON.stringify(token)}`);
      const parent = stack.at(-1);
      if (parent === 'loc' || parent === 'lastmod') text += token.replace(/&(\w+);/g, (_, name: string) => ENTITIES[name] ?? '');
      else if (token.trim() !== '') throw new Error(`stray text ${JSON.stringify(token)} in <${parent ?? ''}>`);
      continue;
    }
    const tag = /^<(\/?)([a-z]+)((?:\s+[a-z]+="[^"<&]*")*)\s*>$/.exec(token);
    if (!tag) throw new Error(`malformed tag ${token}`);
    const [, closing, name = '', attributes = ''] = tag;
    const parent = stack.at(-1);
    if (closing) {
      if (stack.pop() !== name) throw new Error(`</${name}> does not close <${parent ?? ''}>`);
      if ((name === 'loc' || name === 'lastmod') && current) (current[name] ??= []).push(text);
      if (name === 'url' && current) {
        if (current.loc?.length !== 1) throw new Error('a <url> without exactly one <loc>');
        if ((current.lastmod?.length ?? 0) > 1) throw new Error('a <url> with several <lastmod>');
        urls.push({ loc: current.loc[0] ?? '', ...(current.lastmod ? { lastmod: current.lastmod[0] } : {}) });
        current = undefined;
      }
      continue;
    }
    const allowedParent: Record<string, string | undefined> = { urlset: undefined, url: 'urlset', loc: 'url', lastmod: 'url' };
    if (!(name in allowedParent) || allowedParent[name] !== parent) throw new Error(`<${name}> inside <${parent ?? ''}>`);
    if (name === 'urlset') {
      roots += 1;
      if (attributes.trim() !== `xmlns="${SITEMAP_NAMESPACE}"`) throw new Error(`urlset attributes ${attributes}`);
    } else if (attributes) throw new Error(`<${name}> has attributes`);
    if (name === 'url') current = {};
    text = '';
    stack.push(name);
  }
  if (stack.length > 0 || roots !== 1) throw new Error('not exactly one closed <urlset>');
  return urls;
}

/** Another app on the test database, listening like the one startTestApp gives. */
interface ExtraApp {
  app: FastifyInstance;
  request(method: string, path: string, options?: HttpRequestOptions): Promise<HttpResponse>;
}

async function startExtraApp(overrides: Parameters<typeof testConfig>[1]): Promise<ExtraApp> {
  const app = await buildApp({ config: testConfig(ctx.testDb.url, overrides) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  return { app, request: (method, path, options) => httpRequest(baseUrl, method, path, options) };
}

let ctx: TestContext;
/** The same database served with SITE_URL set. */
let configured: ExtraApp;

beforeAll(async () => {
  ctx = await startTestApp();
  configured = await startExtraApp({ siteUrl: SITE_URL });
});

afterAll(async () => {
  await configured.app.close();
  await ctx.close();
});

/** Every post, newest first, as stored (the API's own list may lag a changed database by a second). */
async function blogPosts(): Promise<BlogPostSummary[]> {
  return listBlogPosts(ctx.db, BLOG_LIMIT_MAX);
}

describe('GET /robots.txt', () => {
  const robots = (origin: string) =>
    ['User-agent: *', 'Allow: /', 'Disallow: /api/', 'Disallow: /remotes/', 'Disallow: /staff', '', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n');

  it('points crawlers to the sitemap on SITE_URL, whatever the Host', async () => {
    const response = await configured.request('GET', '/robots.txt', { headers: { host: 'other.example:8080' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
    expect(response.body).toBe(robots(SITE_URL));
  });

  it('takes nothing from the request, not even X-Forwarded-* behind a trusted proxy', async () => {
    const forged = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' };
    const proxied = await startExtraApp({ siteUrl: SITE_URL, trustProxy: true });
    try {
      const response = await proxied.request('GET', '/robots.txt', { headers: forged });
      expect(response.body).toBe(robots(SITE_URL));
    } finally {
      await proxied.app.close();
    }
  });
});

describe('GET /site.webmanifest', () => {
  it("answers the brand's name, colours and the site's icons as a web app manifest, cached for a day", async () => {
    const response = await ctx.request('GET', '/site.webmanifest');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=86400');
    expect(response.json()).toEqual({
      name: BRAND.fullName,
      short_name: BRAND.name,
      description: BRAND.tagline,
      lang: 'uk',
      dir: 'ltr',
      start_url: '/',
      scope: '/',
      display: 'browser',
      theme_color: BRAND.colors.theme,
      background_color: BRAND.colors.background,
      icons: [
        { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
        { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
        { src: SITE_ICONS.svg.href, sizes: 'any', type: 'image/svg+xml' },
      ],
    });
  });
});

describe('GET /sitemap.xml', () => {
  it('lists the home page, the blog listing and every post on SITE_URL, each post with its date', async () => {
    const posts = await blogPosts();
    expect(posts.length).toBeGreaterThanOrEqual(6);
    const response = await configured.request('GET', '/sitemap.xml', { headers: { host: 'other.example' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=300');

    const urls = readSitemap(response.body);
    expect(urls).toEqual([
      // The home page changes with its newest-posts teaser.
      { loc: `${SITE_URL}/`, lastmod: posts[0]?.created_at },
      // So does the listing of every post.
      { loc: `${SITE_URL}/blog`, lastmod: posts[0]?.created_at },
      ...posts.map((post) => ({ loc: `${SITE_URL}/blog/${post.id}`, lastmod: post.created_at })),
    ]);
    urls.forEach((url) => expect(url.lastmod).toMatch(ISO_DATE_TIME));
  });

  it('takes nothing from the request, not even X-Forwarded-* behind a trusted proxy', async () => {
    const forged = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' };
    const proxied = await startExtraApp({ siteUrl: SITE_URL, trustProxy: true });
    try {
      const plain = await configured.request('GET', '/sitemap.xml');
      const response = await proxied.request('GET', '/sitemap.xml', { headers: forged });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(plain.body);
      expect(response.body).not.toContain('evil.example');
    } finally {
      await proxied.app.close();
    }
  });

  it('includes a new post at once, and dates the home page by it', async () => {
    const createdAt = new Date(Date.now() + 60_000);
    const id = await insertBlogPost(ctx.db, {
      slug: 'sitemap-fresh-post',
      title: 'Новий допис',
      excerpt: 'Новий допис',
      category: 'Тест',
      image_url: '/media/blog/analytics.svg',
      author: 'Тест',
      content: '<p>Текст</p>',
      created_at: createdAt,
    });
    const urls = readSitemap((await configured.request('GET', '/sitemap.xml')).body);
    expect(urls.slice(0, 3)).toEqual([
      { loc: `${SITE_URL}/`, lastmod: createdAt.toISOString() },
      { loc: `${SITE_URL}/blog`, lastmod: createdAt.toISOString() },
      { loc: `${SITE_URL}/blog/${id}`, lastmod: createdAt.toISOString() },
    ]);
    const posts = await blogPosts();
    expect(urls.map((url) => url.loc)).toEqual([`${SITE_URL}/`, `${SITE_URL}/blog`, ...posts.map((post) => `${SITE_URL}/blog/${post.id}`)]);
  });

  it('escapes what it writes', () => {
    const xml = sitemapXml('http://a.example&b="<c>\'', [{ id: 1, updated_at: '2026-01-02T03:04:05.000Z' }]);
    expect(xml).toContain('<loc>http://a.example&amp;b=&quot;&lt;c&gt;&apos;/blog/1</loc>');
    expect(readSitemap(xml)).toEqual([
      { loc: 'http://a.example&b="<c>\'/', lastmod: '2026-01-02T03:04:05.000Z' },
      { loc: 'http://a.example&b="<c>\'/blog', lastmod: '2026-01-02T03:04:05.000Z' },
      { loc: 'http://a.example&b="<c>\'/blog/1', lastmod: '2026-01-02T03:04:05.000Z' },
    ]);
  });

  it('is checked by a reader that refuses malformed sitemaps', () => {
    const wrap = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${SITEMAP_NAMESPACE}">${body}</urlset>`;
    expect(readSitemap(wrap('<url><loc>a</loc></url>'))).toEqual([{ loc: 'a' }]);
    expect(() => readSitemap(wrap('<url><loc>a</loc><loc>b</loc></url>'))).toThrow(/one <loc>/);
    expect(() => readSitemap(wrap('<url><lastmod>x</lastmod></url>'))).toThrow(/one <loc>/);
    expect(() => readSitemap(wrap('<url><loc>a&b</loc></url>'))).toThrow(/unescaped/);
    expect(() => readSitemap(wrap('<url><loc>a</url></loc>'))).toThrow(/does not close/);
    expect(() => readSitemap(wrap('<loc>a</loc>'))).toThrow(/inside/);
    expect(() => readSitemap(wrap('<url><loc>a</loc></url>').replace('</urlset>', ''))).toThrow(/urlset/);
  });

  // Last: it empties the blog.
  it('lists only the home page and the listing, undated, when there are no posts', async () => {
    await ctx.db.kysely.deleteFrom('blog_posts').execute();
    const response = await configured.request('GET', '/sitemap.xml');
    expect(response.statusCode).toBe(200);
    expect(readSitemap(response.body)).toEqual([{ loc: `${SITE_URL}/` }, { loc: `${SITE_URL}/blog` }]);
    expect(response.body).not.toContain('<lastmod>');
  });
});
