import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PAGE_CACHE_CONTROL } from '../../../src/site/pages/serve-page';
import { startTestApp, type TestContext } from '../../helpers/app';

const SOURCE_MAP = JSON.stringify({ version: 3, sources: ['webpack://agency/./src/secret.ts'], sourcesContent: ['const secret = 1;'], mappings: 'AAAA' });

/** A fake build of the front ends: shell and two of the three remotes. */
function writeStaticRoot(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-static-'));
  const files: Record<string, string> = {
    'shell/dist/index.html': '<!doctype html><html lang="uk"><body><div id="root"></div></body></html>',
    'shell/dist/main.3f2a9c1b7d.js': 'console.log("shell")',
    'shell/dist/favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    'mfe-home/dist/remoteEntry.js': 'var agency_home;',
    'mfe-home/dist/mf-manifest.json': '{"name":"agency_home"}',
    'mfe-home/dist/123.abcdef12.js': 'chunk()',
    'mfe-forms/dist/remoteEntry.js': 'var agency_forms;',
    // Source maps a production build leaves beside its bundles (with the original source), and
    // compressed copies of one: never served.
    'shell/dist/main.3f2a9c1b7d.js.map': SOURCE_MAP,
    'shell/dist/main.3f2a9c1b7d.js.map.br': SOURCE_MAP,
    'shell/dist/main.3f2a9c1b7d.js.map.gz': SOURCE_MAP,
    'mfe-home/dist/123.abcdef12.js.map': SOURCE_MAP,
    'mfe-home/dist/remoteEntry.js.map': SOURCE_MAP,
    // Next to the served folders: must never be reachable.
    'secret.txt': 'secret',
    'shell/secret.txt': 'secret',
  };
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), content);
  }
  return root;
}

const EXPECTED_CSP =
  "default-src 'self';script-src 'self';connect-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data:;" +
  "font-src 'self' data:;object-src 'none';base-uri 'self';frame-ancestors 'none';form-action 'self'";

describe('all-in-one serving (same-origin remotes)', () => {
  let ctx: TestContext;
  let root: string;

  beforeAll(async () => {
    root = writeStaticRoot();
    ctx = await startTestApp({ staticRoot: root });
  });

  afterAll(async () => {
    await ctx.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it.each(['/api/services', '/', '/main.3f2a9c1b7d.js', '/remotes/home/remoteEntry.js', '/api/nothing', '/remotes.json'])(
    'sends the security headers on %s',
    async (url) => {
      const response = await ctx.request('GET', url);
      expect(response.headers['content-security-policy']).toBe(EXPECTED_CSP);
      expect(response.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(response.headers['x-powered-by']).toBeUndefined();
    },
  );

  it('serves the shell at / as HTML that caches must revalidate', async () => {
    const response = await ctx.request('GET', '/', { headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe(PAGE_CACHE_CONTROL);
    expect(response.body).toContain('<div id="root">');
  });

  it('falls back to the shell for client-side routes that accept HTML', async () => {
    for (const url of ['/blog/3', '/blog/some-post?x=1', '/about']) {
      const response = await ctx.request('GET', url, { headers: { accept: 'text/html,application/xhtml+xml' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe(PAGE_CACHE_CONTROL);
      expect(response.body).toContain('<div id="root">');
    }
  });

  it('does not answer HTML for missing assets or API paths', async () => {
    const asset = await ctx.request('GET', '/missing.0123abcd.js', { headers: { accept: '*/*' } });
    expect(asset.statusCode).toBe(404);
    const api = await ctx.request('GET', '/api/missing', { headers: { accept: 'text/html' } });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Ресурс не знайдено' } });
    const remote = await ctx.request('GET', '/remotes/home/nothing.js', { headers: { accept: 'text/html' } });
    expect(remote.statusCode).toBe(404);
  });

  it('caches hashed files forever and unhashed ones briefly', async () => {
    expect((await ctx.request('GET', '/main.3f2a9c1b7d.js')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await ctx.request('GET', '/favicon.svg')).headers['cache-control']).toBe('public, max-age=86400');
    expect((await ctx.request('GET', '/index.html')).headers['cache-control']).toBe(PAGE_CACHE_CONTROL);
  });

  it('serves each built remote under /remotes/<name>/ with CORS and the right caching', async () => {
    const cases = [
      ['/remotes/home/remoteEntry.js', 'no-cache'],
      ['/remotes/home/mf-manifest.json', 'no-cache'],
      ['/remotes/home/123.abcdef12.js', 'public, max-age=31536000, immutable'],
      ['/remotes/forms/remoteEntry.js', 'no-cache'],
    ];
    for (const [url, cacheControl] of cases) {
      const response = await ctx.request('GET', url ?? '');
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe(cacheControl);
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
    }
    // Shell files are not for other origins.
    expect((await ctx.request('GET', '/main.3f2a9c1b7d.js')).headers['access-control-allow-origin']).toBeUndefined();
    // A remote that is not built is simply missing.
    expect((await ctx.request('GET', '/remotes/blog/remoteEntry.js')).statusCode).toBe(404);
  });

  it('answers /remotes.json with each dist manifest when nothing is released, no-cache', async () => {
    const response = await ctx.request('GET', '/remotes.json');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.json()).toEqual({
      shell: { release: 'dist' },
      remotes: {
        home: { entry: '/remotes/home/mf-manifest.json', release: 'dist' },
        blog: { entry: '/remotes/blog/mf-manifest.json', release: 'dist' },
        forms: { entry: '/remotes/forms/mf-manifest.json', release: 'dist' },
        staff: { entry: '/remotes/staff/mf-manifest.json', release: 'dist' },
      },
    });
  });

  it.each([
    '/../secret.txt',
    '/%2e%2e/secret.txt',
    '/..%2fsecret.txt',
    '/..%5csecret.txt',
    '/remotes/home/../../secret.txt',
    '/remotes/home/%2e%2e/%2e%2e/secret.txt',
    '/remotes/home/..%2f..%2fsecret.txt',
    '/remotes/home/%2e%2e%2f%2e%2e%2fsecret.txt',
    '/remotes/..%2fshell/secret.txt',
    '/remotes/home/.%2e/.%2e/shell/secret.txt',
    '/remotes/home/%00remoteEntry.js',
  ])('never serves files outside the served folders: %s', async (url) => {
    const response = await ctx.request('GET', url, { headers: { accept: '*/*' } });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('secret');
  });

  it.each([
    '/main.3f2a9c1b7d.js.map',
    '/main.3f2a9c1b7d.js.map.br',
    '/main.3f2a9c1b7d.js.map.gz',
    '/remotes/home/123.abcdef12.js.map',
    '/remotes/home/remoteEntry.js.map',
  ])('never serves source maps, which stay beside the build: %s', async (url) => {
    for (const encoding of ['identity', 'br, gzip']) {
      const response = await ctx.request('GET', url, { headers: { accept: '*/*', 'accept-encoding': encoding } });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Ресурс не знайдено' } });
    }
    // The bundles beside them still are.
    expect((await ctx.request('GET', '/main.3f2a9c1b7d.js')).statusCode).toBe(200);
  });

  it('serves the seed images under /media/', async () => {
    const response = await ctx.request('GET', '/media/services/analytics.svg');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(response.headers['cache-control']).toBe('public, max-age=86400');
  });
});

describe('remotes on other origins (REMOTE_*_URL)', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await startTestApp({
      remoteUrls: {
        blog: 'https://blog.cdn.example/remotes/blog/mf-manifest.json',
        forms: 'http://127.0.0.1:3003/mf-manifest.json',
      },
    });
  });

  afterAll(async () => {
    await ctx.close();
  });

  it('answers /remotes.json with the overridden URLs', async () => {
    expect((await ctx.request('GET', '/remotes.json')).json()).toEqual({
      shell: { release: 'dist' },
      remotes: {
        home: { entry: '/remotes/home/mf-manifest.json', release: 'dist' },
        blog: { entry: 'https://blog.cdn.example/remotes/blog/mf-manifest.json', release: 'external' },
        forms: { entry: 'http://127.0.0.1:3003/mf-manifest.json', release: 'external' },
        staff: { entry: '/remotes/staff/mf-manifest.json', release: 'dist' },
      },
    });
  });

  it('allows exactly those origins for scripts, styles, fetches, images and fonts', async () => {
    const csp = (await ctx.request('GET', '/api/health')).headers['content-security-policy'];
    const directives = Object.fromEntries(
      String(csp)
        .split(';')
        .map((directive) => {
          const [name, ...values] = directive.trim().split(/\s+/);
          return [name, values];
        }),
    );
    const origins = ['https://blog.cdn.example', 'http://127.0.0.1:3003'];
    expect(directives['script-src']).toEqual(["'self'", ...origins]);
    expect(directives['connect-src']).toEqual(["'self'", ...origins]);
    expect(directives['img-src']).toEqual(["'self'", 'data:', ...origins]);
    expect(directives['font-src']).toEqual(["'self'", 'data:', ...origins]);
    // Remotes on other origins ship CSS chunks too.
    expect(directives['style-src']).toEqual(["'self'", "'unsafe-inline'", ...origins]);
    expect(directives['default-src']).toEqual(["'self'"]);
    expect(directives['upgrade-insecure-requests']).toBeUndefined();
  });

  it('answers / with 404 when the shell is not built', async () => {
    expect((await ctx.request('GET', '/', { headers: { accept: 'text/html' } })).statusCode).toBe(404);
  });
});
