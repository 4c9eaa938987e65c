import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { PrecompressedBody } from '../../../src/platform/http/cached-body';
import { eventually } from '../../helpers/eventually';
import { OTHER_STATUS_SHARE, PAGE_CACHE_MAX_ENTRIES, PageCache, type CachedPage, type PageRender } from '../../../src/site/pages/page-cache';

/** A kept page's body: these pages hold no forms, so it is the same for every visitor. */
function sharedBody(page: CachedPage | undefined): PrecompressedBody {
  if (!page || page.forms) throw new Error('expected a page without forms');
  return page.body;
}

function textOf(page: CachedPage | undefined): string | undefined {
  return page && sharedBody(page).text;
}

const MiB = 1024 * 1024;
const ROOMY = { maxBytes: 64 * MiB, maxEntries: PAGE_CACHE_MAX_ENTRIES };

/** A render function that counts its calls per address and renders what `page` makes of the address. */
function renderer(page: (url: string) => PageRender | undefined = (url) => ({ status: 200, html: htmlFor(url), complete: true, apps: [] })) {
  const calls = new Map<string, number>();
  return {
    // The cache names the address it renders (pages rendered ahead are others than the one asked for).
    for: (url: string) => async (target: string = url) => {
      calls.set(target, (calls.get(target) ?? 0) + 1);
      return page(target);
    },
    calls: (url: string) => calls.get(url) ?? 0,
    total: () => [...calls.values()].reduce((sum, count) => sum + count, 0),
  };
}

function htmlFor(url: string): string {
  return `<!doctype html><html lang="uk"><body><main data-url="${url}">${'Хвиля '.repeat(200)}</main></body></html>`;
}

/** A promise the test settles when it chooses. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Addresses of one length, so pages of the same html cost the same. */
const pageUrl = (index: number) => `/page/${String(index).padStart(5, '0')}`;

/** The bytes a page takes in the cache: its address, its text and both compressed copies. */
async function costOfOnePage(html: string): Promise<number> {
  const cache = new PageCache(ROOMY);
  await cache.get('g1', pageUrl(0), async () => ({ status: 200, html, complete: true, apps: [] }));
  return cache.size.bytes;
}

describe('PageCache', () => {
  it('renders the pages used last again as soon as a new generation starts, after the one asked for', async () => {
    const cache = new PageCache(ROOMY);
    const render = renderer((url) => ({ status: url === '/no/such/page' ? 404 : 200, html: htmlFor(url), complete: true, apps: [] }));
    for (const url of ['/', '/blog', '/blog/1', '/no/such/page']) await cache.get('g1', url, render.for(url));
    const rendered: string[] = [];
    const recording = async (url: string) => {
      rendered.push(url);
      return { status: url === '/no/such/page' ? 404 : 200, html: htmlFor(`${url} g2`), complete: true, apps: [] };
    };
    const asked = await cache.get('g2', '/blog', recording);
    expect(textOf(asked)).toBe(htmlFor('/blog g2'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Most recently used first; the one asked for only once; pages that answered 404 are not rendered ahead.
    expect(rendered).toEqual(['/blog', '/blog/1', '/']);
    const fresh = render.for('/');
    expect(textOf(await cache.get('g2', '/', fresh))).toBe(htmlFor('/ g2'));
    expect(render.calls('/')).toBe(1);
  });

  it('stops rendering ahead once another generation starts', async () => {
    const cache = new PageCache(ROOMY);
    const render = renderer();
    for (const url of ['/a', '/b', '/c']) await cache.get('g1', url, render.for(url));
    const slow = deferred<PageRender>();
    const rendered: string[] = [];
    await cache.get('g2', '/c', async (url) => {
      rendered.push(url);
      return url === '/b' ? slow.promise : { status: 200, html: htmlFor(url), complete: true, apps: [] };
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(rendered).toEqual(['/c', '/b']);
    await cache.get('g3', '/c', render.for('/c'));
    slow.resolve({ status: 200, html: htmlFor('/b'), complete: true, apps: [] });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(rendered).toEqual(['/c', '/b']);
  });

  it('renders a page once per generation and address and serves it from memory after that', async () => {
    const cache = new PageCache(ROOMY);
    const render = renderer();
    const first = await cache.get('g1', '/', render.for('/'));
    const again = await cache.get('g1', '/', render.for('/'));
    const other = await cache.get('g1', '/blog', render.for('/blog'));
    expect(render.calls('/')).toBe(1);
    expect(render.calls('/blog')).toBe(1);
    expect(again).toBe(first);
    expect(first).toMatchObject({ status: 200, cacheable: true });
    expect(textOf(first)).toBe(htmlFor('/'));
    expect(textOf(other)).toBe(htmlFor('/blog'));
    expect(cache.size.entries).toBe(2);
  });

  it('keeps a page with forms open before its </body>: every response closes it with its own end', async () => {
    const cache = new PageCache(ROOMY);
    const html = `<body><main><form id="contact-form" data-form-token="contact"></form>${'Послуги '.repeat(500)}<form data-form-token="job-application"></form></main></body></html>`;
    const page = await cache.get('g1', '/', async () => ({ status: 200, html, complete: true, apps: [] }));
    if (!page?.forms) throw new Error('a page with forms is kept open');
    expect(page.forms).toEqual({ names: ['contact', 'job-application'], tail: '</body></html>' });
    expect(page.body.start).toBe(html.slice(0, html.lastIndexOf('</body>')));
    expect(brotliDecompressSync(page.body.closedWith('<i>a</i></body></html>', 'br') as Buffer).toString('utf8')).toBe(`${page.body.start}<i>a</i></body></html>`);
    expect(gunzipSync(page.body.closedWith('<i>b</i></body></html>', 'gzip') as Buffer).toString('utf8')).toBe(`${page.body.start}<i>b</i></body></html>`);
    expect(cache.size.bytes).toBe(Buffer.byteLength('/') + page.body.byteLength);
  });

  it('gives the page a strong ETag, brotli and gzip copies of its html and its size in bytes', async () => {
    const cache = new PageCache(ROOMY);
    const html = `<main>${randomBytes(3000).toString('base64')}${'Стаття '.repeat(300)}</main>`;
    const page = await cache.get('g1', '/blog/1', async () => ({ status: 200, html, complete: true, apps: [] }));
    if (!page || page.forms) throw new Error('a page without forms is the same for everyone');
    const body = page.body;
    expect(body.text).toBe(html);
    expect(body.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(brotliDecompressSync(body.encoded('br')).toString('utf8')).toBe(html);
    expect(gunzipSync(body.encoded('gzip')).toString('utf8')).toBe(html);
    expect(body.byteLength).toBe(html.length * 2 + body.encoded('br').length + body.encoded('gzip').length);
    expect(cache.size).toEqual({ entries: 1, bytes: Buffer.byteLength('/blog/1') + body.byteLength });
  });

  it('sends a kept page in a smaller brotli copy once it is compressed again in the background, the first one not shared meanwhile', async () => {
    const cache = new PageCache(ROOMY);
    const words = ['Стратегія', 'контент', 'реклама', 'аналітика', 'SEO', 'бренд', 'Львів', 'клієнти', 'звіт', 'кампанія'];
    const html = `<main>${Array.from({ length: 400 }, (_, index) => `<article class="card card--${index % 7}" id="post-${index}"><h3>${words[index % 10]} ${index}</h3><p>${words.slice(index % 5).join(' ')} ${(index * 37) % 1000} ₴</p></article>`).join('')}</main>`;
    const page = (await cache.get('g1', '/', async () => ({ status: 200, html, complete: true, apps: [] })))!;
    const first = { br: sharedBody(page).encoded('br'), etag: sharedBody(page).etag, size: cache.size };
    // A cache in front keeps only the better brotli copy; gzip and the text are final from the start.
    expect([sharedBody(page).shareable('br'), sharedBody(page).shareable('gzip'), sharedBody(page).shareable(null)]).toEqual([false, true, true]);
    const better = await eventually('the better copy', () => sharedBody(page).encoded('br'), (br) => br !== first.br);
    expect(better.length).toBeLessThan(first.br.length);
    expect(brotliDecompressSync(better).toString('utf8')).toBe(html);
    expect(sharedBody(page).shareable('br')).toBe(true);
    // The same ETag as before: every process gives the page one, whichever copy it holds.
    expect(sharedBody(page).etag).toBe(first.etag);
    expect({ size: cache.size, kept: await cache.get('g1', '/', async () => undefined) }).toEqual({ size: first.size, kept: page });
  });

  it('does not compress again a page it did not keep', async () => {
    const html = `<main>${'Стаття про контент-маркетинг. '.repeat(2000)}</main>`;
    const unkept = (await new PageCache(ROOMY).get('g1', '/', async () => ({ status: 200, html, complete: false, apps: [] })))!;
    const nowhere = (await new PageCache({ maxBytes: 0, maxEntries: PAGE_CACHE_MAX_ENTRIES }).get('g1', '/', async () => ({ status: 200, html, complete: true, apps: [] })))!;
    const firsts = [sharedBody(unkept).encoded('br'), sharedBody(nowhere).encoded('br')];
    // What the background would have done by now, for a page it kept, it does for this one only when asked.
    const kept = (await new PageCache(ROOMY).get('g1', '/', async () => ({ status: 200, html, complete: true, apps: [] })))!;
    await eventually('the kept page compressed again', () => sharedBody(kept).encoded('br').length, (length) => length < firsts[0]!.length);
    expect([sharedBody(unkept).encoded('br'), sharedBody(nowhere).encoded('br')]).toEqual(firsts);
    expect([sharedBody(unkept).shareable('br'), sharedBody(nowhere).shareable('br')]).toEqual([true, true]);
    expect(sharedBody(kept).encoded('br').length).toBeLessThan(firsts[0]!.length);
  });

  it('gives the same html the same ETag and other html another', async () => {
    const cache = new PageCache(ROOMY);
    const one = await cache.get('g1', '/a', async () => ({ status: 200, html: '<p>same</p>', complete: true, apps: [] }));
    const two = await cache.get('g1', '/b', async () => ({ status: 200, html: '<p>same</p>', complete: true, apps: [] }));
    const three = await cache.get('g1', '/c', async () => ({ status: 200, html: '<p>other</p>', complete: true, apps: [] }));
    expect(sharedBody(two).etag).toBe(sharedBody(one).etag);
    expect(sharedBody(three).etag).not.toBe(sharedBody(one).etag);
  });

  it('keeps a page with a status other than 200 as well', async () => {
    const cache = new PageCache(ROOMY);
    const render = renderer((url) => ({ status: 404, html: `<h1>Сторінку ${url} не знайдено</h1>`, complete: true, apps: [] }));
    const page = await cache.get('g1', '/missing', render.for('/missing'));
    await cache.get('g1', '/missing', render.for('/missing'));
    expect(page).toMatchObject({ status: 404, cacheable: true });
    expect(render.calls('/missing')).toBe(1);
  });

  it('drops every kept page when the generation changes', async () => {
    const cache = new PageCache(ROOMY);
    const render = renderer();
    await cache.get('g1', '/', render.for('/'));
    await cache.get('g1', '/blog', render.for('/blog'));
    expect(cache.size.entries).toBe(2);

    const next = cache.get('g2', '/', render.for('/'));
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
    await next;
    expect(cache.size.entries).toBe(1);
    expect(render.calls('/')).toBe(2);

    await cache.get('g2', '/blog', render.for('/blog'));
    expect(render.calls('/blog')).toBe(2);
    await cache.get('g2', '/', render.for('/'));
    expect(render.calls('/')).toBe(2);

    // The generation before is not kept beside the new one either.
    await cache.get('g1', '/', render.for('/'));
    expect(render.calls('/')).toBe(3);
  });

  it('shares one render among concurrent requests for the same page', async () => {
    const cache = new PageCache(ROOMY);
    const pending = deferred<PageRender>();
    let calls = 0;
    const render = () => {
      calls += 1;
      return pending.promise;
    };
    const requests = Array.from({ length: 5 }, () => cache.get('g1', '/', render));
    expect(calls).toBe(1);
    pending.resolve({ status: 200, html: htmlFor('/'), complete: true, apps: [] });
    const pages = await Promise.all(requests);
    expect(new Set(pages).size).toBe(1);
    expect(textOf(pages[0])).toBe(htmlFor('/'));
    await cache.get('g1', '/', render);
    expect(calls).toBe(1);
  });

  it('sends an incomplete page as not cacheable and does not keep it', async () => {
    const cache = new PageCache(ROOMY);
    const render = renderer((url) => ({ status: 200, html: htmlFor(url), complete: false, apps: [] }));
    const page = await cache.get('g1', '/', render.for('/'));
    expect(page).toMatchObject({ status: 200, cacheable: false });
    expect(textOf(page)).toBe(htmlFor('/'));
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
    await cache.get('g1', '/', render.for('/'));
    expect(render.calls('/')).toBe(2);
  });

  it('does not keep a failed render: every waiting request gets the error and the next one renders again', async () => {
    const cache = new PageCache(ROOMY);
    const pending = deferred<PageRender>();
    let calls = 0;
    const failing = () => {
      calls += 1;
      return pending.promise;
    };
    const requests = [cache.get('g1', '/', failing), cache.get('g1', '/', failing)];
    pending.reject(new Error('shell bundle broken'));
    const results = await Promise.allSettled(requests);
    expect(results.map((result) => (result.status === 'rejected' ? (result.reason as Error).message : 'sent'))).toEqual(['shell bundle broken', 'shell bundle broken']);
    expect(calls).toBe(1);
    expect(cache.size.entries).toBe(0);

    const render = renderer();
    const page = await cache.get('g1', '/', render.for('/'));
    expect(textOf(page)).toBe(htmlFor('/'));
    expect(render.calls('/')).toBe(1);
  });

  it('gives undefined when there is nothing to render with, and keeps nothing for it', async () => {
    const cache = new PageCache(ROOMY);
    const nothing = renderer(() => undefined);
    expect(await cache.get('g1', '/', nothing.for('/'))).toBeUndefined();
    expect(await cache.get('g1', '/', nothing.for('/'))).toBeUndefined();
    expect(nothing.calls('/')).toBe(2);
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });

    const render = renderer();
    expect(textOf(await cache.get('g1', '/', render.for('/')))).toBe(htmlFor('/'));
  });

  it('does not keep a page whose render finished after the generation changed', async () => {
    const cache = new PageCache(ROOMY);
    const pending = deferred<PageRender>();
    const stale = cache.get('g1', '/', () => pending.promise);
    const render = renderer((url) => ({ status: 200, html: `new ${url}`, complete: true, apps: [] }));
    await cache.get('g2', '/blog', render.for('/blog'));
    pending.resolve({ status: 200, html: 'old /', complete: true, apps: [] });
    expect(textOf(await stale)).toBe('old /');
    expect(cache.size.entries).toBe(1);

    expect(textOf(await cache.get('g2', '/', render.for('/')))).toBe('new /');
    expect(render.calls('/')).toBe(1);
  });

  it('does not share a render of the generation before with a request of the new one', async () => {
    const cache = new PageCache(ROOMY);
    const pending = deferred<PageRender>();
    const stale = cache.get('g1', '/', () => pending.promise);
    const render = renderer((url) => ({ status: 200, html: `new ${url}`, complete: true, apps: [] }));
    const fresh = await cache.get('g2', '/', render.for('/'));
    expect(textOf(fresh)).toBe('new /');
    expect(render.calls('/')).toBe(1);
    pending.resolve({ status: 200, html: 'old /', complete: true, apps: [] });
    expect(textOf(await stale)).toBe('old /');
    expect(textOf(await cache.get('g2', '/', render.for('/')))).toBe('new /');
    expect(render.calls('/')).toBe(1);
  });

  it('keeps unknown addresses within their share of entries and bytes, and the real pages through a flood of them', async () => {
    const limits = { maxBytes: MiB, maxEntries: 100 };
    const cache = new PageCache(limits);
    const pages = renderer();
    const realPages = Array.from({ length: 80 }, (_, index) => pageUrl(index));
    for (const url of realPages) await cache.get('g1', url, pages.for(url));
    const before = cache.size;
    expect(before.entries).toBe(80);

    const notFound = renderer((url) => ({ status: 404, html: `<h1>${url}</h1>${'x'.repeat(500)}`, complete: true, apps: [] }));
    let most = 0;
    for (let index = 0; index < 10_000; index += 1) {
      const url = `/${randomBytes(12).toString('hex')}`;
      const page = await cache.get('g1', url, notFound.for(url));
      expect(page?.status).toBe(404);
      most = Math.max(most, cache.size.entries - before.entries);
      expect(cache.size.bytes).toBeLessThanOrEqual(limits.maxBytes);
    }
    expect(notFound.total()).toBe(10_000);
    expect(most).toBe(Math.floor(limits.maxEntries * OTHER_STATUS_SHARE));

    for (const url of realPages) await cache.get('g1', url, pages.for(url));
    expect(pages.total()).toBe(realPages.length);
  });

  it('keeps 200 pages through 10,000 unknown addresses whose pages would fill the bytes', async () => {
    const limits = { maxBytes: MiB, maxEntries: PAGE_CACHE_MAX_ENTRIES };
    const cache = new PageCache(limits);
    const pages = renderer((url) => ({ status: 200, html: `<main>${url}</main>${'x'.repeat(2000)}`, complete: true, apps: [] }));
    const realPages = Array.from({ length: 200 }, (_, index) => pageUrl(index));
    for (const url of realPages) await cache.get('g1', url, pages.for(url));
    const before = cache.size;
    expect(before.entries).toBe(200);

    const notFound = renderer((url) => ({ status: 404, html: `<h1>${url}</h1><p>${randomBytes(1500).toString('base64')}</p>`, complete: true, apps: [] }));
    let mostBytes = 0;
    let mostEntries = 0;
    for (let index = 0; index < 10_000; index += 1) {
      const url = `/${randomBytes(12).toString('hex')}?page=${index}`;
      await cache.get('g1', url, notFound.for(url));
      mostBytes = Math.max(mostBytes, cache.size.bytes - before.bytes);
      mostEntries = Math.max(mostEntries, cache.size.entries - before.entries);
    }
    expect(mostBytes).toBeLessThanOrEqual(Math.floor(limits.maxBytes * OTHER_STATUS_SHARE));
    expect(mostEntries).toBeLessThanOrEqual(Math.floor(limits.maxEntries * OTHER_STATUS_SHARE));
    expect(cache.size.bytes).toBeLessThanOrEqual(limits.maxBytes);

    for (const url of realPages) await cache.get('g1', url, pages.for(url));
    expect(pages.total()).toBe(realPages.length);
  });

  it('drops the least recently used page past the entries bound', async () => {
    // 228 entries: 200 for pages answering 200, the other-status share for the rest.
    const maxEntries = 228;
    expect(maxEntries - Math.floor(maxEntries * OTHER_STATUS_SHARE)).toBe(200);
    const cache = new PageCache({ maxBytes: 64 * MiB, maxEntries });
    const render = renderer();
    for (let index = 0; index < 200; index += 1) await cache.get('g1', pageUrl(index), render.for(pageUrl(index)));
    expect(cache.size.entries).toBe(200);

    await cache.get('g1', pageUrl(0), render.for(pageUrl(0)));
    await cache.get('g1', pageUrl(200), render.for(pageUrl(200)));
    expect(cache.size.entries).toBe(200);

    await cache.get('g1', pageUrl(0), render.for(pageUrl(0)));
    expect(render.calls(pageUrl(0))).toBe(1);
    await cache.get('g1', pageUrl(1), render.for(pageUrl(1)));
    expect(render.calls(pageUrl(1))).toBe(2);
    for (let index = 3; index <= 200; index += 1) await cache.get('g1', pageUrl(index), render.for(pageUrl(index)));
    expect(render.total()).toBe(202);
    // Rendering the second page again pushed out the least recently used one then: the third.
    await cache.get('g1', pageUrl(2), render.for(pageUrl(2)));
    expect(render.calls(pageUrl(2))).toBe(2);
  });

  it('drops the least recently used pages past the bytes bound', async () => {
    const html = `<main>${'x'.repeat(4000)}</main>`;
    const cost = await costOfOnePage(html);
    expect(cost).toBeGreaterThan(Buffer.byteLength(html));
    // Bytes for exactly 200 pages answering 200, once the other-status share is set aside.
    const maxBytes = Math.ceil((200 * cost * 8) / 7);
    const found = maxBytes - Math.floor(maxBytes * OTHER_STATUS_SHARE);
    expect(found).toBeGreaterThanOrEqual(200 * cost);
    expect(found).toBeLessThan(201 * cost);

    const cache = new PageCache({ maxBytes, maxEntries: 10_000 });
    const render = renderer(() => ({ status: 200, html, complete: true, apps: [] }));
    for (let index = 0; index < 200; index += 1) await cache.get('g1', pageUrl(index), render.for(pageUrl(index)));
    expect(cache.size).toEqual({ entries: 200, bytes: 200 * cost });

    await cache.get('g1', pageUrl(0), render.for(pageUrl(0)));
    await cache.get('g1', pageUrl(200), render.for(pageUrl(200)));
    expect(cache.size).toEqual({ entries: 200, bytes: 200 * cost });

    await cache.get('g1', pageUrl(0), render.for(pageUrl(0)));
    expect(render.calls(pageUrl(0))).toBe(1);
    await cache.get('g1', pageUrl(1), render.for(pageUrl(1)));
    expect(render.calls(pageUrl(1))).toBe(2);
    expect(cache.size.bytes).toBeLessThanOrEqual(maxBytes);
  });

  it('serves a page larger than its whole share without keeping it or dropping others', async () => {
    const cache = new PageCache({ maxBytes: 64 * 1024, maxEntries: 100 });
    const render = renderer((url) => ({ status: 200, html: url === '/huge' ? randomBytes(80 * 1024).toString('base64') : htmlFor(url), complete: true, apps: [] }));
    await cache.get('g1', '/', render.for('/'));
    const before = cache.size;
    const huge = await cache.get('g1', '/huge', render.for('/huge'));
    expect(huge).toMatchObject({ status: 200, cacheable: true });
    expect(cache.size).toEqual(before);
    await cache.get('g1', '/huge', render.for('/huge'));
    await cache.get('g1', '/', render.for('/'));
    expect(render.calls('/huge')).toBe(2);
    expect(render.calls('/')).toBe(1);
  });

  it('keeps nothing with no bytes to keep pages in, yet concurrent requests still share one render', async () => {
    const cache = new PageCache({ maxBytes: 0, maxEntries: PAGE_CACHE_MAX_ENTRIES });
    const render = renderer();
    await cache.get('g1', '/', render.for('/'));
    await cache.get('g1', '/', render.for('/'));
    expect(render.calls('/')).toBe(2);
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });

    const pending = deferred<PageRender>();
    let calls = 0;
    const shared = () => {
      calls += 1;
      return pending.promise;
    };
    const requests = Array.from({ length: 4 }, () => cache.get('g1', '/blog', shared));
    pending.resolve({ status: 200, html: htmlFor('/blog'), complete: true, apps: [] });
    const pages = await Promise.all(requests);
    expect(calls).toBe(1);
    expect(pages.every((page) => textOf(page) === htmlFor('/blog'))).toBe(true);
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
    await cache.get('g1', '/blog', shared);
    expect(calls).toBe(2);
  });
});
