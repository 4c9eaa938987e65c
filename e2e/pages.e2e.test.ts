import { HOME_PAGE_META, NOT_FOUND_TEXT, POST_NOT_FOUND_TEXT, SECTION_IDS, type BlogPost } from '@agency/shared';
import { describeInBrowser, openPage, waitForHydration } from './support/browser';
import { setUpSiteAndBrowser } from './support/suite';

jest.setTimeout(60_000);

/** The JSON-LD objects a page's HTML carries. */
function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map(
    (match) => JSON.parse(match[1]!) as Record<string, unknown>,
  );
}

function metaContent(html: string, attribute: 'name' | 'property', key: string): string | undefined {
  return new RegExp(`<meta ${attribute}="${key}" content="([^"]*)">`).exec(html)?.[1];
}

describeInBrowser('pages rendered by the server', () => {
  const suite = setUpSiteAndBrowser();
  let post: BlogPost;

  beforeAll(async () => {
    const [newest] = (await (await fetch(`${suite.site.baseUrl}/api/blog?limit=1`)).json()) as { id: number }[];
    post = (await (await fetch(`${suite.site.baseUrl}/api/blog/${newest!.id}`)).json()) as BlogPost;
  });

  it('shows a post with JavaScript off: title, date, author and text', async () => {
    const page = await openPage(suite.browser, `${suite.site.baseUrl}/blog/${post.id}`, { javaScriptEnabled: false });
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(post.title);
    // The post's own article (the related posts' cards below it are articles too).
    const article = page.locator('main article').first();
    await expect(article.locator('time').getAttribute('datetime')).resolves.toBe(post.created_at);
    await expect(article.textContent()).resolves.toContain(`Автор: ${post.author}`);
    const firstParagraph = /<p>(.*?)<\/p>/s.exec(post.content)?.[1]?.replace(/<[^>]+>/g, '');
    await expect(page.getByTestId('blog-post-content').textContent()).resolves.toContain(firstParagraph);
    // The frame comes from the server too: header navigation and the footer.
    await expect(page.locator('header a[href="/"]').count()).resolves.toBeGreaterThan(0);
    await expect(page.getByRole('contentinfo').count()).resolves.toBe(1);
    await page.context().close();
  });

  it('shows the hero with JavaScript off, where it stays once the remotes have taken over', async () => {
    // Each page is opened a second time, its font then in the cache: the site's font is used only
    // if it is there for the first paint (font-display: optional), and a first visit may miss it.
    const staticPage = await openPage(suite.browser, suite.site.baseUrl, { javaScriptEnabled: false });
    await staticPage.reload();
    const heading = staticPage.locator(`#${SECTION_IDS.hero} h1`);
    const before = await heading.boundingBox();
    const text = await heading.textContent();
    await staticPage.context().close();
    expect(before).not.toBeNull();

    const page = await openPage(suite.browser, suite.site.baseUrl);
    await page.reload();
    await waitForHydration(page.locator(`[data-remote-module="home/Hero"] h1`));
    await expect(page.locator(`#${SECTION_IDS.hero} h1`).textContent()).resolves.toBe(text);
    await expect(page.locator(`#${SECTION_IDS.hero} h1`).boundingBox()).resolves.toEqual(before);
    expect(page.consoleErrors).toEqual([]);
    await page.context().close();
  });

  it('gives a post its own title, description, canonical link, link preview and BlogPosting data', async () => {
    const response = await fetch(`${suite.site.baseUrl}/blog/${post.id}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`<link rel="canonical" href="${suite.site.baseUrl}/blog/${post.id}">`);
    expect(metaContent(html, 'property', 'og:type')).toBe('article');
    expect(metaContent(html, 'property', 'og:title')).toContain(post.title.replace(/"/g, '&#34;').slice(0, 20));
    const image = metaContent(html, 'property', 'og:image')!;
    expect(image.startsWith(`${suite.site.baseUrl}/media/`)).toBe(true);
    expect(metaContent(html, 'property', 'og:image:width')).toBe('1200');
    expect(metaContent(html, 'property', 'og:image:height')).toBe('630');
    // The preview picture is a real raster image.
    const picture = await fetch(image);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toMatch(/^image\/(jpeg|png)/);
    const [data] = jsonLd(html);
    expect(data).toMatchObject({ '@type': 'BlogPosting', datePublished: post.created_at, author: { name: post.author } });
  });

  it('describes the agency on / as a local business with its hours', async () => {
    const html = await (await fetch(suite.site.baseUrl)).text();
    expect(html).toContain(`<title>${HOME_PAGE_META.title}</title>`);
    const [business] = jsonLd(html);
    expect(business).toMatchObject({
      '@type': 'LocalBusiness',
      address: { addressLocality: 'Львів' },
      openingHoursSpecification: [{ dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'], opens: '09:00', closes: '18:00' }],
    });
  });

  it.each([
    ['an unknown post', '/blog/987654', POST_NOT_FOUND_TEXT],
    ['an unknown path', '/no/such/page', NOT_FOUND_TEXT],
  ])('answers %s with 404 and a page that leads home', async (_label, path, heading) => {
    const response = await fetch(`${suite.site.baseUrl}${path}`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('<meta name="robots" content="noindex">');

    const page = await openPage(suite.browser, `${suite.site.baseUrl}${path}`, { javaScriptEnabled: false });
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(heading);
    await expect(page.locator('main a[href="/"]').count()).resolves.toBeGreaterThan(0);
    await page.context().close();
  });

  it('sends precompressed assets and compressed API answers', async () => {
    const html = await (await fetch(suite.site.baseUrl)).text();
    const script = /<script defer src="?([^" >]+\.js)/.exec(html)?.[1];
    expect(script).toBeDefined();
    // Node's fetch decodes the body; the headers still say how it travelled.
    const asset = await fetch(`${suite.site.baseUrl}${script}`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(asset.headers.get('content-encoding')).toBe('br');
    expect(asset.headers.get('vary')).toMatch(/accept-encoding/i);
    const gzipOnly = await fetch(`${suite.site.baseUrl}${script}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzipOnly.headers.get('content-encoding')).toBe('gzip');
    const api = await fetch(`${suite.site.baseUrl}/api/blog`, { headers: { 'accept-encoding': 'br' } });
    expect(api.headers.get('content-encoding')).toBe('br');
  });

  it('marks the scripts whose every function runs on load for eager compilation, and no others', async () => {
    const html = await (await fetch(suite.site.baseUrl)).text();
    const preloaded = [...html.matchAll(/<link rel="preload" as="script"[^>]* href="([^"]+\.js)"/g)].map((match) => match[1]!);
    const entry = /<script defer src="?([^" >]+\.js)/.exec(html)?.[1];
    const startsWithHint = async (path: string) =>
      (await (await fetch(`${suite.site.baseUrl}${path}`)).text()).startsWith('//# allFunctionsCalledOnLoad\n');
    const hinted = [];
    for (const path of [entry!, ...preloaded]) if (await startsWithHint(path)) hinted.push(path.replace(/\.[0-9a-f]{10}\.js$/, '.js'));
    // The shell's entry (the federation runtime), its bootstrap chunk and the home remote's entry;
    // libraries and exposed modules, most of whose functions wait for use, compile lazily.
    expect(hinted.sort()).toEqual(['/bootstrap.js', '/main.js', '/remotes/home/remoteEntry.js']);
  });

  it('asks for the scripts it did not preload only once its first content is on screen', async () => {
    for (const path of ['/', `/blog/${post.id}`]) {
      const html = await (await fetch(`${suite.site.baseUrl}${path}`)).text();
      const announced = [...html.matchAll(/<script defer src=([^ >]+)>|<link rel="preload" as="script"[^>]* href="([^"]+)"/g)].map(
        (match) => new URL(match[1] ?? match[2]!, suite.site.baseUrl).href,
      );
      expect(announced.length).toBeGreaterThan(1);
      const page = await openPage(suite.browser);
      // A slow stylesheet holds back both the first paint and the shell's deferred script, so
      // which of the two comes first is the page's own choice.
      await page.route(/\/bootstrap\.[0-9a-f]+\.css$/, async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        await route.continue();
      });
      await page.goto(`${suite.site.baseUrl}${path}`, { waitUntil: 'networkidle' });
      const { firstPaint, scripts } = await page.evaluate(() => ({
        firstPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
        scripts: performance
          .getEntriesByType('resource')
          .filter((entry) => entry.name.endsWith('.js'))
          .map((entry) => ({ url: entry.name, start: entry.startTime })),
      }));
      expect(firstPaint).toBeDefined();
      const later = scripts.filter((script) => !announced.includes(script.url));
      // React DOM and the other libraries, at least.
      expect(later.length).toBeGreaterThan(2);
      expect(later.filter((script) => script.start < firstPaint!)).toEqual([]);
      await page.context().close();
    }
  });

  it('links each stylesheet once when the remotes take over the server-rendered page', async () => {
    // A second link to the same stylesheet costs the page a full restyle and layout at start-up.
    for (const path of ['/', `/blog/${post.id}`]) {
      const page = await openPage(suite.browser, `${suite.site.baseUrl}${path}`);
      await page.waitForLoadState('networkidle');
      if (path === '/') await waitForHydration(page.locator(`#${SECTION_IDS.contact} form`));
      const { sheets, inline } = await page.evaluate(() => ({
        sheets: Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]'), (link) => link.href),
        inline: Array.from(document.querySelectorAll('style[data-href]'), (style) => style.getAttribute('data-href')!),
      }));
      // The first screen's modules' styles are linked; on / the lower sections' come inline, and
      // their remotes, loaded since, adopted those instead of linking their files.
      expect(sheets.filter((href) => href.includes('/remotes/')).length).toBeGreaterThanOrEqual(1);
      expect(inline.length).toBeGreaterThanOrEqual(path === '/' ? 6 : 0);
      expect(sheets.filter((href) => inline.some((file) => href.endsWith(`/${file}`)))).toEqual([]);
      expect(sheets.filter((href, index) => sheets.indexOf(href) !== index)).toEqual([]);
      await page.context().close();
    }
  });

  it('reads in a sans-serif face of the device, bold where bold, when the web font cannot load', async () => {
    const page = await openPage(suite.browser, undefined, { javaScriptEnabled: false });
    await page.route(/\.woff2$/, (route) => route.abort());
    await page.goto(suite.site.baseUrl);
    // Probes the browser's own serif default, beside the page's text, to compare faces with.
    await page.evaluate(() => {
      const probe = document.createElement('p');
      probe.id = 'serif-probe';
      probe.style.fontFamily = 'serif';
      probe.textContent = 'Агенція';
      document.body.append(probe);
      // Lays the probe out now: the faces are read from the layout (the page runs no script of its
      // own here, so there are no frame callbacks to wait for).
      return probe.getBoundingClientRect().height;
    });
    const cdp = await page.context().newCDPSession(page);
    const { root } = await cdp.send('DOM.getDocument');
    await cdp.send('CSS.enable');
    const faceOf = async (selector: string) => {
      const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
      const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
      return fonts.map((font) => ({ family: font.familyName, face: font.postScriptName }));
    };
    const [serif] = await faceOf('#serif-probe');
    expect(serif).toBeDefined();
    const heading = await faceOf(`#${SECTION_IDS.hero} h1`);
    const text = await faceOf(`#${SECTION_IDS.hero} h1 + p`);
    for (const faces of [heading, text]) {
      expect(faces.length).toBeGreaterThan(0);
      for (const face of faces) {
        expect(face.family).not.toMatch(/Montserrat/);
        expect(face.family).not.toBe(serif!.family);
      }
    }
    // The heading's weight comes from a bold face of the device, not from the regular one.
    expect(heading.map((font) => font.face)).not.toEqual(text.map((font) => font.face));
    await page.context().close();
  });

  it('loads the forms’ code only when the visitor scrolls near them', async () => {
    const page = await openPage(suite.browser, undefined, { lazySections: true });
    // The forms' markup and styles come with the page; their code only when the visitor nears them.
    const formsRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/remotes/forms/') && request.resourceType() !== 'stylesheet') formsRequests.push(request.url());
    });
    await page.goto(suite.site.baseUrl);
    await page.locator(`[data-remote-module="home/Hero"]`).waitFor();
    await page.waitForLoadState('networkidle');
    expect(formsRequests).toEqual([]);
    await page.locator(`#${SECTION_IDS.contact}`).scrollIntoViewIfNeeded();
    await waitForHydration(page.locator(`#${SECTION_IDS.contact} form`));
    expect(formsRequests.length).toBeGreaterThan(0);
    await page.context().close();
  });
});
