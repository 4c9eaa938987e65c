import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { SECTION_IDS, TOAST_MESSAGES, type DataSubjectReport } from '@agency/shared';
import { createDatabase } from '../api/src/platform/db/connection';
import { webhookSignature } from '../api/src/platform/lib/webhook-signature';
import { sqliteFilesHolding, textColumnsHolding } from '../api/test/helpers/database';
import { eventually } from '../api/test/helpers/eventually';
import { startHttpReceiver, type HttpReceiver } from '../api/test/helpers/lead-receivers';
import { describeInBrowser, launchBrowser, openPage } from './support/browser';
import { fillContact, submit } from './support/forms';
import { BOTH_DATABASES, startPostgres, type RunningPostgres } from './support/postgres';
import { startSite, type RunningSite } from './support/site';
import { horizontalOverflow, invitationLink, joinWithApp } from './support/staff-console';

// A person's request about their data, answered in the console: a lead sent through the real
// form in Chromium is found by its e-mail, downloaded and erased, on SQLite and on PostgreSQL.
jest.setTimeout(120_000);

const SECRET = 'data-requests-e2e-secret';
const VISITOR_EMAIL = 'andrii.erase.me@example.com';
/** What fillContact types: the visitor's name, phone (its digits) and message. */
const VISITOR_TRACES = [VISITOR_EMAIL, 'Андрій Шевчук', '507654321', 'Потрібне ведення Instagram для двох кавʼярень'];

describe.each(BOTH_DATABASES)('a person’s data on %s', (_label, onPostgres) => {
  describeInBrowser('in Chromium', () => {
    let browser: Browser;
    let site: RunningSite;
    let postgres: RunningPostgres | undefined;
    let webhook: HttpReceiver;

    beforeAll(async () => {
      webhook = await startHttpReceiver();
      postgres = onPostgres ? await startPostgres() : undefined;
      const env = { LEADS_WEBHOOK_URL: `${webhook.url}/leads`, LEADS_WEBHOOK_SECRET: SECRET, ...(postgres && { DATABASE_URL: postgres.url }) };
      [browser, site] = await Promise.all([launchBrowser(), startSite(env, { siteHost: 'localhost' })]);
    });

    afterAll(async () => {
      await Promise.all([browser?.close(), site?.stop(), webhook?.close()]);
      await postgres?.stop();
    });

    it('finds a lead sent from the form by its e-mail, downloads it, erases it: no table holds the person, the CRM is told, the audit log keeps a hash', async () => {
      const visitor = await openPage(browser);
      await visitor.goto(`${site.siteUrl}/`);
      const form = visitor.locator(`#${SECTION_IDS.contact} form`);
      await fillContact(form, VISITOR_EMAIL);
      await submit(form, 'Надіслати повідомлення');
      await visitor.getByText(TOAST_MESSAGES.contactSuccess).waitFor();
      await eventually('the lead at the webhook', () => webhook.accepted().filter((request) => request.body.includes(VISITOR_EMAIL)).length, (count) => count === 1);

      const admin = await openPage(browser, undefined, { viewport: { width: 375, height: 812 }, acceptDownloads: true });
      // The console names the person in request bodies only: no URL it requests carries them.
      const urls: string[] = [];
      admin.on('request', (request) => urls.push(request.url()));
      await joinWithApp(admin, invitationLink(site, 'privacy@khvylia.example', 'admin'));
      await admin.getByRole('link', { name: 'Запити щодо даних' }).click();
      await admin.getByLabel('E-mail або телефон').fill(VISITOR_EMAIL.toUpperCase());
      await admin.getByRole('button', { name: 'Знайти' }).click();
      const card = admin.getByTestId('subject-lead');
      await card.waitFor();
      expect(await card.count()).toBe(1);
      expect(await card.textContent()).toContain('Андрій Шевчук');
      expect(await horizontalOverflow(admin)).toBe(0);

      const [download] = await Promise.all([admin.waitForEvent('download'), admin.getByRole('button', { name: 'Завантажити дані' }).click()]);
      const file = JSON.parse(readFileSync((await download.path())!, 'utf8')) as DataSubjectReport;
      expect(file).toMatchObject({ format: 'agency-data-subject/1', subject: VISITOR_EMAIL, matchedBy: 'email' });
      expect(file.leads).toHaveLength(1);
      expect(file.leads[0]!.fields).toContainEqual({ name: 'email', value: VISITOR_EMAIL });
      expect(JSON.stringify(file.leads[0]!.notifications[0]!.payload)).toContain(VISITOR_EMAIL);

      await admin.getByLabel('Щоб підтвердити, введіть ту саму адресу чи номер ще раз').fill(VISITOR_EMAIL);
      await admin.getByRole('button', { name: 'Видалити дані' }).click();
      await admin.getByRole('status').filter({ hasText: 'Дані видалено: звернень і заявок — 1' }).waitFor();
      await admin.getByText(/Дані цієї особи видалено .*privacy@khvylia\.example.*звернень і заявок — 1/).waitFor();
      expect(await admin.getByTestId('subject-lead').count()).toBe(0);
      expect(urls.filter((url) => url.includes('/api/staff/data-requests/'))).not.toEqual([]);
      expect(urls.filter((url) => decodeURIComponent(url).toLowerCase().includes(VISITOR_EMAIL))).toEqual([]);
      // On SQLite, not in the database's files either (its write-ahead log included), the site still running.
      if (!onPostgres) expect(sqliteFilesHolding(site.databaseUrl, VISITOR_TRACES)).toEqual({});

      const db = createDatabase(site.databaseUrl, { poolSize: 1 });
      try {
        expect(await textColumnsHolding(db, VISITOR_TRACES)).toEqual({});
        const erasures = await db.kysely.selectFrom('staff_audit').select(['actor', 'target', 'detail']).where('action', '=', 'data-erased').execute();
        expect(erasures).toEqual([{ actor: 'privacy@khvylia.example', target: expect.stringMatching(/^subject:[A-Za-z0-9_-]{43}$/), detail: expect.stringContaining('"leads":1') }]);
      } finally {
        await db.destroy();
      }

      const message = await eventually('the erasure at the webhook', () => webhook.accepted().find((request) => request.body.includes('"lead.erased"')), Boolean);
      expect(message!.headers['x-signature']).toBe(webhookSignature(message!.body, SECRET));
      const lead = JSON.parse(webhook.accepted().find((request) => request.body.includes(VISITOR_EMAIL))!.body) as { idempotency_key: string };
      expect((JSON.parse(message!.body) as { leads: { idempotency_key: string }[] }).leads.map((each) => each.idempotency_key)).toEqual([lead.idempotency_key]);
    });
  });
});
