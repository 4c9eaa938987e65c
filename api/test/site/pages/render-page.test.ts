import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { startTestApp, type TestContext } from '../../helpers/app';
import { eventually } from '../../helpers/eventually';
import { HOME_BUNDLE, REASONS_CSS, writeBuilds } from '../../helpers/page-builds';

describe('pages rendered on the server from the apps’ server bundles', () => {
  let ctx: TestContext;
  let root: string;

  beforeAll(async () => {
    root = writeBuilds();
    ctx = await startTestApp({ staticRoot: root, siteUrl: 'https://khvylia.example' });
  });

  afterAll(async () => {
    await ctx.close();
    fs.rmSync(root, { recursive: true, force: true });
    delete process.env.AGENCY_TEST_BREAK_HERO;
  });

  it('stitches the frame, the slot rendered with API data, the head, the links and the page data', async () => {
    const services = (await ctx.request('GET', '/api/services')).json() as unknown[];
    const response = await ctx.request('GET', '/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = response.body;
    expect(html).toContain('<title>Головна &#60;Хвиля&#62;</title>');
    expect(html).not.toContain('<title>dev</title>');
    expect(html).toContain('<link rel="canonical" href="https://khvylia.example/">');
    expect(html).toContain(`<div data-remote-module="home/Hero" data-remote-release="dist"><h1>Послуг: ${services.length}</h1></div>`);
    // React's hint goes to the head, before the shell's script; the slot's styles are linked under
    // the name the remote's CSS loader looks for, so it adopts them instead of adding a copy.
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head.indexOf('<link rel="preload" as="image" href="/media/hero.svg"/>')).toBeLessThan(head.indexOf('<script defer'));
    expect(head).toContain('<link rel="stylesheet" href="/remotes/home/hero.0a1b2c3d4e.css" data-href="hero.0a1b2c3d4e.css">');
    expect(head).toContain('<link rel="stylesheet" href="/bootstrap.0a1b2c3d4e.css">');
    expect(head).toContain('<link rel="preload" as="script" fetchpriority="low" href="/remotes/home/remoteEntry.js">');
    const pageData = (id: string) => JSON.parse(new RegExp(`<script type="application/json" id="${id}">([^<]*)</script>`).exec(html)![1]!);
    expect(pageData('agency-remotes').remotes.home.entry).toBe('/remotes/home/mf-manifest.json');
    expect(pageData('agency-server-data')['/services']).toEqual({ status: 200, body: services });
  });

  it('sends a lower section whole with its styles in the page, but leaves its code to the browser', async () => {
    const html = (await ctx.request('GET', '/hero/with-lower')).body;
    const head = html.slice(0, html.indexOf('</head>'));
    expect(html).toContain('<div data-remote-module="home/Reasons"><h2>Чому ми</h2></div>');
    expect(head).toContain(`<style data-href="reasons.0a1b2c3d4e.css">${REASONS_CSS}</style>`);
    expect(head).not.toContain('reasons.0a1b2c3d4e.js');
    expect(head).not.toContain('href="/remotes/home/reasons.0a1b2c3d4e.css"');
    // The first screen's slot keeps its link and its script preloads.
    expect(head).toContain('<link rel="stylesheet" href="/remotes/home/hero.0a1b2c3d4e.css" data-href="hero.0a1b2c3d4e.css">');
    expect(head).toContain('href="/remotes/home/hero.0a1b2c3d4e.js"');
  });

  it('answers 404 with the shell’s page for a path no route knows', async () => {
    const response = await ctx.request('GET', '/no/such/page');
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('<h1>Сторінку не знайдено</h1>');
    expect(response.body).toContain('<meta name="robots" content="noindex">');
  });

  it('renders the page from the part of the address it reads (a filtered blog listing is its own page)', async () => {
    const response = await ctx.request('GET', '/blog?utm_source=fb&category=%D0%9A%D0%B5%D0%B9%D1%81%D0%B8&page=2&fbclid=IwAR0');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<p>Адреса: /blog?category=%D0%9A%D0%B5%D0%B9%D1%81%D0%B8&page=2</p>');
  });

  it('asks for a file, not a page, when the name has an extension', async () => {
    const response = await ctx.request('GET', '/missing.js', { headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('still sends a page the browser can render when a slot or the frame fails on the server, and does not keep it', async () => {
    process.env.AGENCY_TEST_BREAK_HERO = '1';
    const brokenSlot = await ctx.request('GET', '/hero/broken-slot');
    expect(brokenSlot.statusCode).toBe(200);
    expect(brokenSlot.body).toContain('<div class="placeholder"></div>');
    // Not for shared caches either: the next request renders again, and the slot is back.
    expect(brokenSlot.headers['cache-control']).toBe('no-cache');
    delete process.env.AGENCY_TEST_BREAK_HERO;
    expect((await ctx.request('GET', '/hero/broken-slot')).body).toContain('<div data-remote-module="home/Hero"');

    const brokenFrame = await ctx.request('GET', '/boom');
    expect(brokenFrame.statusCode).toBe(200);
    expect(brokenFrame.body).toContain('<div id="root"></div>');
    expect(brokenFrame.body).toContain('<script type="application/json" id="agency-remotes">');
  });

  it('leaves a slot to the browser when the API fails to answer its data, instead of rendering the page as missing', async () => {
    process.env.AGENCY_TEST_HERO_DATA = '/blog/1';
    await sql`ALTER TABLE blog_posts RENAME TO blog_posts_away`.execute(ctx.db.kysely);
    try {
      expect((await ctx.request('GET', '/api/blog/1')).statusCode).toBe(500);
      const page = await ctx.request('GET', '/hero/data-failed');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<div class="placeholder"></div>');
      expect(page.body).not.toContain('Не знайдено');
    } finally {
      await sql`ALTER TABLE blog_posts_away RENAME TO blog_posts`.execute(ctx.db.kysely);
    }
    // Once the data is back, so is the slot: the page without it was not kept.
    expect((await ctx.request('GET', '/hero/data-failed')).body).toContain('<div data-remote-module="home/Hero"');
    // What the API says is missing stays a missing page.
    process.env.AGENCY_TEST_HERO_DATA = '/blog/999999';
    try {
      const missing = await ctx.request('GET', '/hero/data-missing');
      expect([missing.statusCode, missing.body.includes('<h1>Не знайдено</h1>')]).toEqual([404, true]);
    } finally {
      delete process.env.AGENCY_TEST_HERO_DATA;
    }
  });

  it('never serves a server bundle to browsers', async () => {
    expect((await ctx.request('GET', '/server/render.js')).statusCode).toBe(404);
    expect((await ctx.request('GET', '/remotes/home/server/render.js')).statusCode).toBe(404);
  });
});

describe('a remote hosted elsewhere (REMOTE_*_URL)', () => {
  const ENTRY = 'https://home.example/mf-manifest.json';
  let root: string;
  let builds: string;

  beforeAll(() => {
    root = writeBuilds();
    builds = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-remote-builds-'));
  });

  afterAll(() => {
    for (const dir of [root, builds]) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A build of the home remote as its own container leaves it: a copy, and `dist` a symlink to it. */
  function leaveHomeBuild(name: string, heading: string): void {
    const copy = path.join(builds, 'mfe-home', name);
    fs.cpSync(path.join(root, 'mfe-home/dist'), copy, { recursive: true });
    fs.writeFileSync(path.join(copy, 'server/render.js'), HOME_BUNDLE.replace('Послуг: ', `${heading}: `));
    fs.symlinkSync(name, path.join(builds, 'mfe-home', 'dist.next'));
    fs.renameSync(path.join(builds, 'mfe-home', 'dist.next'), path.join(builds, 'mfe-home', 'dist'));
  }

  it('renders in the browser only, without REMOTE_BUILDS_DIR', async () => {
    const ctx = await startTestApp({ staticRoot: root, remoteUrls: { home: ENTRY } });
    try {
      const html = (await ctx.request('GET', '/')).body;
      expect(html).toContain('<div class="placeholder"></div>');
      expect(html).not.toContain('Послуг');
    } finally {
      await ctx.close();
    }
  });

  it('renders on the server from the build its server left in REMOTE_BUILDS_DIR, following each new one', async () => {
    leaveHomeBuild('build-1', 'Перша збірка');
    const ctx = await startTestApp({ staticRoot: root, remoteUrls: { home: ENTRY }, remoteBuildsDir: builds });
    try {
      const first = (await ctx.request('GET', '/')).body;
      expect(first).toMatch(/<div data-remote-module="home\/Hero" data-remote-release="external"><h1>Перша збірка: \d+<\/h1><\/div>/);
      // The browser fetches the slot's files from the remote's own origin.
      expect(first).toContain('<link rel="stylesheet" href="https://home.example/hero.0a1b2c3d4e.css" data-href="hero.0a1b2c3d4e.css">');
      expect(first).toContain('<link rel="preload" as="script" fetchpriority="low" href="https://home.example/remoteEntry.js">');

      // Build folders are looked at about once a second.
      leaveHomeBuild('build-2', 'Друга збірка');
      await eventually(
        'the page rendered from the new build',
        async () => (await ctx.request('GET', '/')).body,
        (html) => html.includes('<h1>Друга збірка: '),
        3000,
      );
    } finally {
      await ctx.close();
    }
  });
});

describe('server bundles loaded ahead of the first page', () => {
  it('loads the shell’s and each remote’s server bundle once the server is up, and a page then loads neither again', async () => {
    const root = writeBuilds();
    // Each bundle notes in a file when it is evaluated.
    const evaluations = path.join(root, 'evaluated.txt');
    for (const folder of ['shell', 'mfe-home']) {
      const bundle = path.join(root, folder, 'dist', 'server', 'render.js');
      const note = `require('node:fs').appendFileSync(${JSON.stringify(evaluations)}, ${JSON.stringify(`${folder}\n`)});\n`;
      fs.writeFileSync(bundle, note + fs.readFileSync(bundle, 'utf8'));
    }
    const evaluated = () => (fs.existsSync(evaluations) ? fs.readFileSync(evaluations, 'utf8').split('\n').filter(Boolean).sort() : []);
    const ctx = await startTestApp({ staticRoot: root });
    try {
      await eventually('both bundles evaluated with no page asked for', evaluated, (folders) => folders.length === 2);
      expect(evaluated()).toEqual(['mfe-home', 'shell']);
      const page = await ctx.request('GET', '/hero/ahead');
      expect(page.body).toContain('<div data-remote-module="home/Hero"');
      expect(evaluated()).toEqual(['mfe-home', 'shell']);
    } finally {
      await ctx.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
