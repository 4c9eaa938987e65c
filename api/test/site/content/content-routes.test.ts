import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { BlogPost, BlogPostSummary, Service } from '@agency/shared';
import { buildApp } from '../../../src/app';
import { listServices } from '../../../src/site/content/content-repository';
import { startTestApp, testConfig, type TestContext } from '../../helpers/app';
import { eventually } from '../../helpers/eventually';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await startTestApp();
});

afterAll(async () => {
  await ctx.close();
});

describe('GET /api/services', () => {
  it('lists the seeded services with the documented shape', async () => {
    const response = await ctx.request('GET', '/api/services');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const services = response.json<Service[]>();
    expect(services.length).toBeGreaterThanOrEqual(6);
    for (const service of services) {
      expect(Object.keys(service).sort()).toEqual(
        ['description', 'features', 'icon_url', 'id', 'price_from', 'title'].sort(),
      );
      expect(Number.isInteger(service.id)).toBe(true);
      expect(service.title.length).toBeGreaterThan(0);
      expect(service.icon_url).toMatch(/^\/media\/services\/[a-z-]+\.svg$/);
      expect(Array.isArray(service.features)).toBe(true);
      expect(service.features.length).toBeGreaterThan(0);
      service.features.forEach((feature) => expect(typeof feature).toBe('string'));
      expect(service.price_from === null || typeof service.price_from === 'number').toBe(true);
    }
    expect(services.some((service) => service.price_from === null)).toBe(true);
    expect(services.some((service) => typeof service.price_from === 'number')).toBe(true);
  });

  it('serves the icon each service points to', async () => {
    const services = (await ctx.request('GET', '/api/services')).json<Service[]>();
    for (const service of services) {
      const icon = await ctx.request('GET', service.icon_url);
      expect(icon.statusCode).toBe(200);
      expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/);
    }
  });

  it('is cacheable: a short max-age and an ETag that answers 304', async () => {
    const first = await ctx.request('GET', '/api/services');
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    const etag = first.headers.etag;
    expect(typeof etag).toBe('string');
    const second = await ctx.request('GET', '/api/services', { headers: { 'if-none-match': String(etag) } });
    expect(second.statusCode).toBe(304);
    expect(second.body).toBe('');
    const other = await ctx.request('GET', '/api/services', { headers: { 'if-none-match': '"other"' } });
    expect(other.statusCode).toBe(200);
  });
});

describe('GET /api/blog', () => {
  it('lists posts newest first with the summary shape and no content', async () => {
    const response = await ctx.request('GET', '/api/blog');
    expect(response.statusCode).toBe(200);
    const posts = response.json<BlogPostSummary[]>();
    expect(posts.length).toBeGreaterThanOrEqual(6);
    for (const post of posts) {
      expect(Object.keys(post).sort()).toEqual(
        ['author', 'category', 'created_at', 'excerpt', 'id', 'image_url', 'title'].sort(),
      );
      expect(post.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(post.image_url).toMatch(/^\/media\/posts\/[a-z0-9-]+\.[0-9a-f]{10}\.svg$/);
    }
    const dates = posts.map((post) => post.created_at);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(new Set(posts.map((post) => post.category)).size).toBeGreaterThan(1);
  });

  it('honours ?limit=3 (the home page teaser)', async () => {
    const all = (await ctx.request('GET', '/api/blog')).json<BlogPostSummary[]>();
    const response = await ctx.request('GET', '/api/blog?limit=3');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(all.slice(0, 3));
    expect((await ctx.request('GET', '/api/blog?limit=50')).statusCode).toBe(200);
  });

  it.each(['0', '51', '-1', 'abc', '1.5', '03', ''])('rejects ?limit=%s with a Ukrainian 400', async (limit) => {
    const response = await ctx.request('GET', `/api/blog?limit=${limit}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: {
        code: 'VALIDATION_ERROR',
        message: 'Некоректні параметри запиту',
        fields: { limit: 'Параметр limit має бути цілим числом від 1 до 50' },
      },
    });
  });
});

describe('GET /api/blog/:id', () => {
  it('returns one post with sanitized HTML content', async () => {
    const [first] = (await ctx.request('GET', '/api/blog?limit=1')).json<BlogPostSummary[]>();
    expect(first).toBeDefined();
    const response = await ctx.request('GET', `/api/blog/${first?.id}`);
    expect(response.statusCode).toBe(200);
    const post = response.json<BlogPost>();
    expect(post).toMatchObject(first ?? {});
    expect(post.content).toMatch(/<h2>/);
    expect(post.content).toMatch(/<p>/);
    expect(post.content).toMatch(/<li>/);
    expect(post.content).not.toMatch(/<script/i);
    expect(response.headers.etag).toBeDefined();
  });

  it('serves every post image', async () => {
    const posts = (await ctx.request('GET', '/api/blog')).json<BlogPostSummary[]>();
    for (const { image_url } of posts) {
      expect(image_url).toEqual(expect.any(String));
      expect((await ctx.request('GET', String(image_url))).statusCode).toBe(200);
    }
  });

  it.each(['999999', 'abc', '1abc', '-1', '0', '01', '1.0', '%20', '99999999999999999999'])(
    'answers 404 JSON for the unknown or malformed id %s',
    async (id) => {
      const response = await ctx.request('GET', `/api/blog/${id}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Статтю не знайдено' } });
    },
  );
});

describe('schema', () => {
  it('uses each dialect\'s native types for JSON and timestamps', async () => {
    const { sql } = await import('kysely');
    if (ctx.db.dialect.name === 'postgres') {
      const { rows } = await sql<{ column_name: string; data_type: string }>`
        select column_name, data_type from information_schema.columns
        where table_name = 'services' and column_name in ('features', 'created_at') order by column_name`.execute(ctx.db.kysely);
      expect(rows).toEqual([
        { column_name: 'created_at', data_type: 'timestamp with time zone' },
        { column_name: 'features', data_type: 'jsonb' },
      ]);
    } else {
      const { rows } = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(ctx.db.kysely);
      expect(rows[0]?.journal_mode).toBe('wal');
      const sync = await sql<{ synchronous: number }>`pragma synchronous`.execute(ctx.db.kysely);
      expect(sync.rows[0]?.synchronous).toBe(2); // FULL
    }
  });
});

describe('seeding', () => {
  it('does not seed again when a second app starts on the same database', async () => {
    const before = await listServices(ctx.db);
    const second = await buildApp({ config: testConfig(ctx.testDb.url) });
    await second.close();
    expect(await listServices(ctx.db)).toEqual(before);
  });

});

describe('content served from memory', () => {
  it('shows a change made by another process (another connection) with a new ETag, within seconds', async () => {
    const before = await ctx.request('GET', '/api/blog/1');
    const title = `Оновлено ${Date.now()}`;
    // ctx.db is a connection of its own, as a content sync in another process would be.
    await ctx.db.kysely.updateTable('blog_posts').set({ title }).where('id', '=', 1).execute();
    const post = await eventually(
      'the API to serve the changed post',
      () => ctx.request('GET', '/api/blog/1'),
      (response) => response.json<BlogPost>().title === title,
    );
    expect(post.headers.etag).not.toBe(before.headers.etag);
    const list = await eventually(
      'the API to list the changed post',
      () => ctx.request('GET', '/api/blog'),
      (response) => response.json<BlogPostSummary[]>().some((summary) => summary.title === title),
    );
    expect(list.statusCode).toBe(200);
    // The old ETag no longer matches: a client revalidating gets the new post.
    const revalidated = await ctx.request('GET', '/api/blog/1', { headers: { 'if-none-match': String(before.headers.etag) } });
    expect(revalidated.statusCode).toBe(200);
  });

  it('sends the same JSON compressed to clients that accept brotli or gzip, varying on accept-encoding', async () => {
    const plain = await ctx.request('GET', '/api/blog');
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const) {
      const response = await ctx.request('GET', '/api/blog', { headers: { 'accept-encoding': accept } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.headers.etag).toBe(plain.headers.etag);
      expect(decode(response.raw).toString('utf8')).toBe(plain.body);
    }
  });

  it('answers 304 to a matching If-None-Match, compressed or not', async () => {
    const first = await ctx.request('GET', '/api/blog/2', { headers: { 'accept-encoding': 'br' } });
    const second = await ctx.request('GET', '/api/blog/2', {
      headers: { 'accept-encoding': 'br', 'if-none-match': `W/${String(first.headers.etag)}` },
    });
    expect(second.statusCode).toBe(304);
    expect(second.raw.length).toBe(0);
  });
});
