import fs from 'node:fs';
import type { DataSubjectReport, ErasureResult } from '@agency/shared';
import { startTestApp, VALID_APPLICATION, VALID_CONTACT, type TestContext } from '../../helpers/app';
import { sqliteFilesHolding, testDialect } from '../../helpers/database';
import { eventually } from '../../helpers/eventually';
import { startHttpReceiver, type HttpReceiver } from '../../helpers/lead-receivers';
import { asPerson } from '../../helpers/person-submission';
import { joinWithApp, type JoinedMember } from '../../helpers/staff';

// An erasure on the site's own machine: after it, neither the database's files on disk (the main
// file, its write-ahead log and the log's index, read as bytes) nor the server's log hold the
// person. SQLite only: PostgreSQL's files belong to its server (see vacuumTables).
const PERSON = {
  name: 'Ярослава Шевчишин',
  email: 'Yaroslava.Shevchyshyn@Example.com',
  phone: '+380 (93) 481-27-65',
  /** The same number as the application types it. */
  otherPhone: '093 481 27 65',
  digits: '934812765',
  message: 'Шукаємо підрядника для таргетованої реклами квіткової крамниці',
};
const TRACES = [PERSON.name, PERSON.email, PERSON.phone, PERSON.otherPhone, PERSON.digits, PERSON.message];

(testDialect() === 'sqlite' ? describe : describe.skip)('an erased person on the site’s own machine', () => {
  let ctx: TestContext;
  let webhook: HttpReceiver;
  let admin: JoinedMember;
  const logLines: string[] = [];

  beforeAll(async () => {
    webhook = await startHttpReceiver();
    ctx = await startTestApp({ logLevel: 'info', leads: { webhook: { url: `${webhook.url}/leads`, secret: 'subject-erasure-secret' } } }, undefined, {
      logStream: { write: (line) => void logLines.push(line) },
    });
    admin = await joinWithApp(ctx, 'admin@khvylia.example', 'admin');
  }, 30_000);

  afterAll(async () => {
    await ctx.close();
    await webhook.close();
  });

  it('leaves no trace in the database’s files or the request log once erased', async () => {
    const file = ctx.testDb.url.slice('sqlite:'.length);
    expect(file).not.toBe(':memory:');

    // The person writes twice through the public forms.
    const contact = await ctx.request('POST', '/api/contact', await asPerson(ctx, 'contact', { ...VALID_CONTACT, name: PERSON.name, email: PERSON.email, phone: PERSON.phone, message: PERSON.message }));
    expect(contact.statusCode).toBe(201);
    const application = await ctx.request('POST', '/api/jobs/apply', await asPerson(ctx, 'job-application', { ...VALID_APPLICATION, name: PERSON.name, email: PERSON.email.toLowerCase(), phone: PERSON.otherPhone }));
    expect(application.statusCode).toBe(201);
    await eventually('the webhook deliveries', () => webhook.accepted().length, (count) => count >= 2, 5_000);

    // An admin finds them and exports their data through the console's routes.
    const found = await admin.browser.request('POST', '/api/staff/data-requests/lookup', { json: { subject: PERSON.email } });
    expect(found.statusCode).toBe(200);
    expect(found.json<DataSubjectReport>().leads).toHaveLength(2);
    const exported = await admin.browser.request('POST', '/api/staff/data-requests/export', { json: { subject: PERSON.otherPhone } });
    expect(exported.statusCode).toBe(200);
    expect(exported.json<DataSubjectReport>().leads).toHaveLength(2);
    // A client that still names the person in a URL (an old console, a hand-typed request), and
    // the inbox's search for them: answered, but logged without the values.
    expect((await admin.browser.request('GET', `/api/staff/data-requests?subject=${encodeURIComponent(PERSON.email)}`)).statusCode).toBe(404);
    expect((await admin.browser.request('GET', `/api/staff/leads?q=${encodeURIComponent(PERSON.name)}`)).statusCode).toBe(200);
    // Until the erasure, the files hold the person (so the scan below can see them).
    expect(Object.values(sqliteFilesHolding(ctx.testDb.url, TRACES)).flat()).toEqual(expect.arrayContaining([PERSON.email, PERSON.name]));

    const erased = await admin.browser.request('POST', '/api/staff/data-requests/erase', { json: { subject: PERSON.email, confirmation: PERSON.email } });
    expect(erased.statusCode).toBe(200);
    expect(erased.json<ErasureResult>().leads).toBe(2);

    // The write-ahead log was truncated before the answer: nothing was written to it since but
    // what came after (the erasure's webhook message being delivered, sessions touched).
    expect(fs.existsSync(`${file}-wal`)).toBe(true);
    expect(sqliteFilesHolding(ctx.testDb.url, TRACES)).toEqual({});

    const log = logLines.join('');
    expect(log).toContain('"url":"/api/staff/data-requests/lookup"');
    expect(log).toContain('"url":"/api/staff/data-requests?subject=[redacted]"');
    expect(log).toContain('"url":"/api/staff/leads?q=[redacted]"');
    const logged = TRACES.flatMap((trace) => [trace, encodeURIComponent(trace)]).filter((form) => log.toLowerCase().includes(form.toLowerCase()));
    expect(logged).toEqual([]);
  });
});
