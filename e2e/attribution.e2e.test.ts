import type { Page } from 'playwright-core';
import { ATTRIBUTION_VALUE_MAX, SECTION_IDS, SESSION_ATTRIBUTION_KEY, TOAST_MESSAGES } from '@agency/shared';
import { eventually } from '../api/test/helpers/eventually';
import { parseCsv } from '../api/test/helpers/csv';
import { startHttpReceiver, type HttpReceiver } from '../api/test/helpers/lead-receivers';
import { describeInBrowser, openPage, waitForHydration } from './support/browser';
import { conversionReport, exportedCsv, fillContact, storedSubmissions, submit } from './support/forms';
import { setUpSiteAndBrowser } from './support/suite';

// Real Chromium on the composed site: where a visit came from travels from the landing address
// to the stored lead, its notifications and the staff's report.
jest.setTimeout(90_000);

describeInBrowser('campaign attribution', () => {
  let webhook: HttpReceiver;
  beforeAll(async () => {
    webhook = await startHttpReceiver();
  });
  afterAll(() => webhook.close());
  const suite = setUpSiteAndBrowser(() => ({ LEADS_WEBHOOK_URL: `${webhook.url}/leads` }));

  /**
   * Leaving the page: the browser sends its page views, and with them the session's visit, as the
   * page hides. The tab stays open until the suite ends: closing it at once could cancel the beacon.
   */
  const left: Page[] = [];
  afterAll(() => Promise.all(left.map((page) => page.context().close())));
  async function leave(page: Page): Promise<void> {
    await page.goto('about:blank');
    left.push(page);
  }

  /** Sends the home page's contact form as a visitor would, and waits for the thank-you toast. */
  async function sendContact(page: Page, email: string): Promise<Record<string, unknown>> {
    const form = page.locator(`#${SECTION_IDS.contact} form`);
    await fillContact(form, email);
    await submit(form, 'Надіслати повідомлення');
    await page.locator('.Toastify__toast', { hasText: TOAST_MESSAGES.contactSuccess }).waitFor();
    const stored = (await storedSubmissions(suite.site, 'contact')).find((row) => row.email === email);
    expect(stored).toBeDefined();
    return stored!;
  }

  /** The report's row of one source, once the visit's beacon has been written. */
  const reportRow = (source: string, campaign: string, until: (row: Record<string, unknown>) => boolean) =>
    eventually(
      `the report's row of ${source} / ${campaign}`,
      async () => (await conversionReport(suite.site)).rows.find((row) => row.source === source && row.campaign === campaign),
      (row) => row !== undefined && until(row),
    );

  it('carries a campaign landing through a post and back to the stored lead, the webhook, the export and the report', async () => {
    const page = await openPage(suite.browser, `${suite.site.baseUrl}/?utm_source=facebook&utm_medium=cpc&utm_campaign=black-friday-e2e&fbclid=IwAR0e2e`);
    const firstCard = page.locator(`#${SECTION_IDS.blog} article`).first().getByRole('link', { name: /Читати далі/ });
    await waitForHydration(firstCard);
    // The tags are read, then taken out of the address: a link the visitor shares does not carry them.
    expect(page.url()).toBe(`${suite.site.baseUrl}/`);

    await firstCard.click();
    await page.waitForURL(/\/blog\/\d+$/);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.goBack();
    await page.waitForURL(`${suite.site.baseUrl}/`);

    const lead = await sendContact(page, 'attribution.e2e@example.com');
    expect(lead).toMatchObject({
      utm_source: 'facebook',
      utm_medium: 'cpc',
      utm_campaign: 'black-friday-e2e',
      utm_term: null,
      fbclid: 'IwAR0e2e',
      gclid: null,
      referrer_host: null,
      landing_path: '/',
      landed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });

    const [delivery] = await eventually('the webhook delivery', () => webhook.accepted(), (accepted) => accepted.length === 1);
    const payload = JSON.parse(delivery!.body) as { id: number; attribution: Record<string, string> };
    expect(payload.id).toBe(lead.id);
    expect(payload.attribution).toEqual({
      utm_source: 'facebook',
      utm_medium: 'cpc',
      utm_campaign: 'black-friday-e2e',
      fbclid: 'IwAR0e2e',
      landing_path: '/',
      landed_at: lead.landed_at,
    });

    const table = parseCsv((await exportedCsv(suite.site, 'contact')).replace(/^\uFEFF/, ''));
    const row = table.find((cells) => cells.includes('attribution.e2e@example.com'))!;
    expect(row[table[0]!.indexOf('utm_campaign')]).toBe('black-friday-e2e');

    await leave(page);
    const counted = await reportRow('facebook', 'black-friday-e2e', (found) => found.sessions === 1);
    expect(counted).toEqual({ source: 'facebook', medium: 'cpc', campaign: 'black-friday-e2e', sessions: 1, contact: 1, applications: 0, conversion_rate: 1 });
  });

  it('attributes a landing from another site to its host, and a typed-in visit to (direct)', async () => {
    const referred = await openPage(suite.browser);
    await referred.goto(`${suite.site.baseUrl}/`, { referer: 'https://news.example.org/articles/42?ref=e2e' });
    await sendContact(referred, 'referred.e2e@example.com').then((lead) =>
      expect(lead).toMatchObject({ referrer_host: 'news.example.org', utm_source: null, landing_path: '/' }),
    );
    await leave(referred);

    const direct = await openPage(suite.browser, `${suite.site.baseUrl}/`);
    await sendContact(direct, 'direct.e2e@example.com').then((lead) =>
      expect(lead).toMatchObject({ referrer_host: null, utm_source: null, landing_path: '/' }),
    );
    await leave(direct);

    await expect(reportRow('news.example.org', '(not set)', (row) => row.sessions === 1)).resolves.toMatchObject({ medium: 'referral', contact: 1 });
    await expect(reportRow('(direct)', '(not set)', (row) => row.sessions === 1)).resolves.toMatchObject({ medium: '(none)', contact: 1, conversion_rate: 1 });
  });

  it('clips oversized tags, takes out control characters, and stores the lead even when its attribution is refused', async () => {
    const campaign = 'x'.repeat(500);
    const hostile = await openPage(
      suite.browser,
      `${suite.site.baseUrl}/?utm_source=%3Cscript%3Ealert(1)%3C%2Fscript%3E&utm_campaign=${campaign}&utm_content=%0A%3Dcmd%7C%22%2FC%20calc%22`,
    );
    const lead = await sendContact(hostile, 'hostile.e2e@example.com');
    expect(lead).toMatchObject({ utm_source: '<script>alert(1)</script>', utm_campaign: 'x'.repeat(ATTRIBUTION_VALUE_MAX), utm_content: '=cmd|"/C calc"' });
    // The export defuses what a spreadsheet would run.
    const table = parseCsv((await exportedCsv(suite.site, 'contact')).replace(/^\uFEFF/, ''));
    const row = table.find((cells) => cells.includes('hostile.e2e@example.com'))!;
    expect(row[table[0]!.indexOf('utm_content')]).toBe(`'=cmd|"/C calc"`);
    await hostile.context().close();

    // What the session keeps was tampered with (a value far over the limit): the API drops it, not the lead.
    const tampered = await openPage(suite.browser, `${suite.site.baseUrl}/`);
    await tampered.locator(`#${SECTION_IDS.contact} form`).waitFor();
    await tampered.evaluate(
      ([key, id]) => sessionStorage.setItem(key, JSON.stringify({ sessionId: id, attribution: { utm_source: 'y'.repeat(5000) } })),
      [SESSION_ATTRIBUTION_KEY, 'c'.repeat(32)] as const,
    );
    const kept = await sendContact(tampered, 'tampered.e2e@example.com');
    expect(kept).toMatchObject({ utm_source: null, landing_path: null });
    await tampered.context().close();
  });
});
