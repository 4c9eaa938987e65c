import { BRAND, SITE_ICONS, VACANCIES, WEB_APP_MANIFEST_PATH } from '@agency/shared';
import { describeInBrowser, loadEverything, openPage, violationsAxe } from './support/browser';
import { setUpSiteAndBrowser } from './support/suite';
import { nuHtmlFindings, servedPages, structuredDataFailures, type ServedPage } from './support/web-validators';

// Every page the server sends, held to the web's own validators: the W3C Nu HTML checker, the
// link-preview and rich-result presets, and axe-core's WCAG 2.2 AA rules in a real browser.

jest.setTimeout(180_000);

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const WIDTHS = [375, 1280];

/** The home page's business, complete: what search engines show beside the site. */
const LOCAL_BUSINESS_TESTS = [
  'LocalBusiness[*].name',
  'LocalBusiness[*].telephone',
  'LocalBusiness[*].address.streetAddress',
  'LocalBusiness[*].address.addressLocality',
  'LocalBusiness[*].address.postalCode',
  'LocalBusiness[*].address.addressCountry',
  'LocalBusiness[*].openingHoursSpecification[*].opens',
  'LocalBusiness[*].openingHoursSpecification[*].closes',
  'LocalBusiness[*].openingHoursSpecification[*].dayOfWeek',
  'LocalBusiness[*].logo.url',
  'LocalBusiness[*].image',
  'LocalBusiness[*].sameAs',
].map((test) => ({ test, type: 'jsonld' as const }));

/** Each vacancy, complete: what job search shows (pay, place, dates). */
const JOB_POSTING_TESTS = [
  'JobPosting[*].title',
  'JobPosting[*].description',
  'JobPosting[*].datePosted',
  'JobPosting[*].validThrough',
  'JobPosting[*].employmentType',
  'JobPosting[*].hiringOrganization.name',
  'JobPosting[*].jobLocation.address.streetAddress',
  'JobPosting[*].jobLocation.address.addressLocality',
  'JobPosting[*].jobLocation.address.addressCountry',
  'JobPosting[*].baseSalary.currency',
  'JobPosting[*].baseSalary.value.minValue',
  'JobPosting[*].baseSalary.value.maxValue',
].map((test) => ({ test, type: 'jsonld' as const }));

/** What the Google preset only recommends for a post, required here. */
const BLOG_POSTING_TESTS = ['BlogPosting[*].dateModified', 'BlogPosting[*].mainEntityOfPage', 'BlogPosting[*].image.url'].map((test) => ({
  test,
  type: 'jsonld' as const,
}));

/** A post's own page (not one that is not found). */
const isPost = (page: ServedPage) => /^\/blog\/\d+$/.test(page.path) && page.status === 200;

describeInBrowser('the web validators on every page the server sends', () => {
  const suite = setUpSiteAndBrowser();
  let pages: (ServedPage & { html: string; answered: number })[];

  beforeAll(async () => {
    pages = [];
    for (const page of await servedPages(suite.site.baseUrl)) {
      const response = await fetch(`${suite.site.baseUrl}${page.path}`, { headers: { accept: 'text/html' } });
      pages.push({ ...page, html: await response.text(), answered: response.status });
    }
  });

  it('answers every page, and each way of not finding one, with its status', () => {
    expect(pages.map(({ path, answered }) => ({ path, status: answered }))).toEqual(pages.map(({ path, status }) => ({ path, status })));
  });

  it('passes the W3C Nu HTML checker with no errors and no warnings', async () => {
    expect(pages.length).toBeGreaterThanOrEqual(9);
    await expect(nuHtmlFindings(pages)).resolves.toEqual({});
  });

  it('gives every page complete link previews, and posts, the home page and its vacancies complete rich results', async () => {
    const failures: Record<string, string[]> = {};
    for (const page of pages) {
      const tests = page.path === '/' ? [...LOCAL_BUSINESS_TESTS, ...JOB_POSTING_TESTS] : isPost(page) ? BLOG_POSTING_TESTS : [];
      const failed = await structuredDataFailures(page.html, tests);
      if (failed.length > 0) failures[page.path] = failed;
    }
    expect(failures).toEqual({});
    // The presets look for the structured data the page should have; it must be there to be checked.
    expect(pages.find((page) => page.path === '/')?.html).toContain('"@type":"LocalBusiness"');
    expect(pages.find((page) => page.path === '/')?.html.match(/"@type":"JobPosting"/g)).toHaveLength(VACANCIES.length);
    for (const post of pages.filter(isPost)) {
      expect(post.html).toContain('"@type":"BlogPosting"');
    }
  });

  it.each(WIDTHS)('has no axe-core WCAG 2.2 AA or best-practice violations at %i px once everything has loaded', async (width) => {
    const violations: Record<string, string[]> = {};
    const errors: Record<string, string[]> = {};
    // One page of each kind: the home page, the listings, a post, the privacy page and the not-found pages.
    const firstPost = pages.find(isPost);
    const kinds = pages.filter((page) => !isPost(page) || page === firstPost);
    for (const { path, status } of kinds) {
      const page = await openPage(suite.browser, undefined, { viewport: { width, height: 800 }, lazySections: true });
      await page.goto(`${suite.site.baseUrl}${path}`);
      await loadEverything(page);
      const results = await violationsAxe(page).withTags(AXE_TAGS).analyze();
      if (results.violations.length > 0) {
        violations[path] = results.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      }
      // A not-found page's own 404 is the browser's one expected complaint.
      const unexpected = page.consoleErrors.filter((error) => !(status === 404 && /status of 404/.test(error)));
      if (unexpected.length > 0) errors[path] = unexpected;
      await page.context().close();
    }
    expect(violations).toEqual({});
    expect(errors).toEqual({});
  });
});

describeInBrowser('the site icons and the web app manifest', () => {
  const suite = setUpSiteAndBrowser();

  it('serves every icon a page names, with its type, the size it claims and a day of caching', async () => {
    const html = await (await fetch(suite.site.baseUrl)).text();
    const named = [...html.matchAll(/<link rel="(?:icon|apple-touch-icon)" href="([^"]+)"/g)].map((match) => match[1]);
    expect(named).toEqual([SITE_ICONS.ico.href, SITE_ICONS.svg.href, SITE_ICONS.appleTouch.href]);
    const page = await openPage(suite.browser);
    for (const icon of [SITE_ICONS.ico, SITE_ICONS.svg, SITE_ICONS.appleTouch, ...SITE_ICONS.app]) {
      const response = await fetch(`${suite.site.baseUrl}${icon.href}`);
      expect({ icon: icon.href, status: response.status }).toEqual({ icon: icon.href, status: 200 });
      const type = response.headers.get('content-type') ?? '';
      expect(icon.type === 'image/x-icon' ? ['image/x-icon', 'image/vnd.microsoft.icon'] : [icon.type]).toContain(type.split(';')[0]);
      expect(response.headers.get('cache-control')).toBe('public, max-age=86400');
      // The browser decodes it at the size the page and the manifest claim.
      if (icon.sizes !== 'any') {
        const bytes = Buffer.from(await response.arrayBuffer()).toString('base64');
        const decoded = await page.evaluate(async (src) => {
          const image = new Image();
          image.src = src;
          await image.decode();
          return `${image.naturalWidth}x${image.naturalHeight}`;
        }, `data:${type};base64,${bytes}`);
        expect(icon.sizes.split(' ')).toContain(decoded);
      }
    }
    await page.context().close();
  });

  it("serves the web app manifest with its type, in the brand's name and colours, naming only icons that exist", async () => {
    const html = await (await fetch(suite.site.baseUrl)).text();
    expect(html).toContain(`<link rel="manifest" href="${WEB_APP_MANIFEST_PATH}">`);
    expect(html).toContain(`<meta name="theme-color" content="${BRAND.colors.theme}">`);
    const response = await fetch(`${suite.site.baseUrl}${WEB_APP_MANIFEST_PATH}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=86400');
    const manifest = (await response.json()) as { name: string; short_name: string; theme_color: string; background_color: string; icons: { src: string; sizes: string }[] };
    expect(manifest).toMatchObject({ name: BRAND.fullName, short_name: BRAND.name, theme_color: BRAND.colors.theme, background_color: BRAND.colors.background, start_url: '/' });
    expect(manifest.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    for (const icon of manifest.icons) expect((await fetch(`${suite.site.baseUrl}${icon.src}`)).status).toBe(200);
  });
});
