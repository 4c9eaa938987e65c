import { LEAD_RETENTION, NOTIFICATION_COPY_RETENTION_DAYS, type StaffMember } from '@agency/shared';
import { sql } from 'kysely';
import { monthsBefore } from '../../../../src/platform/lib/calendar';
import { systemClock } from '../../../../src/platform/lib/clock';
import { BATCH_TARGET_MS, BatchSizer, purgeExpired } from '../../../../src/site/leads/retention/retention-purge';
import { insertMember } from '../../../../src/staff/accounts/members-repository';
import { addNote, markSpam, updateLead, type Actor } from '../../../../src/staff/inbox/lead-work';
import { startTestApp, VALID_APPLICATION, VALID_CONTACT, type TestContext } from '../../../helpers/app';
import { countRows } from '../../../helpers/database';
import { eventually } from '../../../helpers/eventually';
import { startHttpReceiver, type HttpReceiver } from '../../../helpers/lead-receivers';
import { asPerson } from '../../../helpers/person-submission';

// The retention rules on a real database, with the purge's clock moved instead of the leads'
// ages: a lead stored now is purged by a run "12 months and a day later".

let ctx: TestContext;
let webhook: HttpReceiver;
let actor: Actor;
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  webhook = await startHttpReceiver();
  ctx = await startTestApp({ leads: { webhook: { url: `${webhook.url}/leads` } } });
  const member: StaffMember = await insertMember(ctx.db.kysely, 'olha@agency.example', 'admin', new Date());
  actor = { member, address: '127.0.0.1' };
});

afterAll(async () => {
  await ctx.close();
  await webhook.close();
});

let senders = 0;
/**
 * A person's lead sent through the API as the form's script sends it, from an e-mail and a phone
 * of its own (unless `sender` names them): the spam defence would hold a sender's fourth lead of
 * a day (spam-rates.ts). Its inbox id.
 */
async function send(kind: 'contact' | 'applications', marker: string, sender: { email?: string } = {}): Promise<number> {
  senders += 1;
  const person = { email: `person.${senders}@example.com`, phone: `+380 93 ${String(senders).padStart(7, '0')}`, ...sender };
  const response =
    kind === 'contact'
      ? await ctx.request('POST', '/api/contact', await asPerson(ctx, 'contact', { ...VALID_CONTACT, ...person, message: marker }))
      : await ctx.request('POST', '/api/jobs/apply', await asPerson(ctx, 'job-application', { ...VALID_APPLICATION, ...person, resume_text: marker }));
  expect(response.statusCode).toBe(201);
  const submissionId = response.json<{ id: number }>().id;
  const lead = await ctx.db.kysely.selectFrom('leads').select('id').where('kind', '=', kind).where('submission_id', '=', submissionId).executeTakeFirstOrThrow();
  return Number(lead.id);
}

/** Moves a lead's arrival and last activity `ms` into the past, as if it came then. */
async function age(leadId: number, ms: number): Promise<void> {
  const at = new Date(Date.now() - ms).toISOString();
  await ctx.db.kysely.updateTable('leads').set({ received_at: at, updated_at: at, last_activity_at: at }).where('id', '=', leadId).execute();
}

async function leadIds(): Promise<number[]> {
  return (await ctx.db.kysely.selectFrom('leads').select('id').orderBy('id').execute()).map((row) => Number(row.id));
}

/** Every row anywhere that still belongs to the lead. */
async function traces(leadId: number): Promise<Record<string, number>> {
  const lead = await ctx.db.kysely.selectFrom('leads').select(['kind', 'submission_id']).where('id', '=', leadId).executeTakeFirst();
  const searchKey = sql.ref(ctx.db.dialect.name === 'postgres' ? 'lead_id' : 'rowid');
  const search = await sql<{ count: number | string }>`select count(*) as count from lead_search where ${searchKey} = ${leadId}`.execute(ctx.db.kysely);
  const count = async (query: { executeTakeFirstOrThrow(): Promise<{ count: unknown }> }) => Number((await query.executeTakeFirstOrThrow()).count);
  const rows: Record<string, number> = {
    leads: lead ? 1 : 0,
    lead_search: Number(search.rows[0]!.count),
    lead_notes: await count(ctx.db.kysely.selectFrom('lead_notes').select((eb) => eb.fn.countAll().as('count')).where('lead_id', '=', leadId)),
    lead_history: await count(ctx.db.kysely.selectFrom('lead_history').select((eb) => eb.fn.countAll().as('count')).where('lead_id', '=', leadId)),
  };
  if (lead) {
    rows.lead_outbox = await count(
      ctx.db.kysely.selectFrom('lead_outbox').select((eb) => eb.fn.countAll().as('count')).where('submission_kind', '=', lead.kind).where('submission_id', '=', Number(lead.submission_id)),
    );
  }
  return rows;
}

describe('the retention purge', () => {
  it('deletes each kind of lead once past its period since the last activity, with everything that hangs off it', async () => {
    const now = Date.now();
    const contact = await send('contact', 'retention: contact');
    const application = await send('applications', 'retention: application');
    const spam = await send('contact', 'retention: spam');
    const won = await send('contact', 'retention: won');
    await addNote(ctx.db, contact, 'Передзвонити в понеділок', actor, systemClock);
    await markSpam(ctx.db, [spam], actor);
    const wonLead = await ctx.db.kysely.selectFrom('leads').select('version').where('id', '=', won).executeTakeFirstOrThrow();
    await updateLead(ctx.db, won, { version: Number(wonLead.version), status: 'won' }, actor, systemClock);
    await eventually('the webhook deliveries', () => webhook.accepted().length, (count) => count >= 4, 5_000);
    expect(await traces(contact)).toEqual({ leads: 1, lead_search: 1, lead_notes: 1, lead_history: 1, lead_outbox: 1 });

    const at = (ms: number) => new Date(ms);
    // When a period that started now ends: `days` or `months` later (calendar months).
    const ends = { days: (days: number) => now + days * DAY, months: (months: number) => monthsBefore(now, -months) };
    const justBefore = (end: number) => at(end - DAY);
    const justAfter = (end: number) => at(end + DAY);

    // Spam goes first: 30 days.
    expect((await purgeExpired(ctx.db, { now: justBefore(ends.days(LEAD_RETENTION.spamDays)) })).leads).toEqual({ spam: 0, contact: 0, applications: 0 });
    expect((await purgeExpired(ctx.db, { now: justAfter(ends.days(LEAD_RETENTION.spamDays)) })).leads).toEqual({ spam: 1, contact: 0, applications: 0 });
    expect(await leadIds()).toEqual([contact, application, won]);

    // Applications: 6 months.
    expect((await purgeExpired(ctx.db, { now: justBefore(ends.months(LEAD_RETENTION.applicationMonths)) })).leads.applications).toBe(0);
    expect((await purgeExpired(ctx.db, { now: justAfter(ends.months(LEAD_RETENTION.applicationMonths)) })).leads.applications).toBe(1);
    expect(await leadIds()).toEqual([contact, won]);

    // Contact messages: 12 months, except the one that won a contract, which stays.
    expect((await purgeExpired(ctx.db, { now: justBefore(ends.months(LEAD_RETENTION.contactMonths)) })).leads.contact).toBe(0);
    const report = await purgeExpired(ctx.db, { now: at(now + 5 * 365 * DAY) });
    expect(report.leads).toEqual({ spam: 0, contact: 1, applications: 0 });
    expect(report.rows).toMatchObject({ leads: 1, contact_messages: 1, lead_search: 1, lead_notes: 1, lead_history: 1, lead_outbox: 1 });
    expect(await leadIds()).toEqual([won]);
    for (const gone of [contact, application, spam]) expect(await traces(gone)).toEqual({ leads: 0, lead_search: 0, lead_notes: 0, lead_history: 0 });
    expect(await countRows(ctx.db, 'contact_messages')).toBe(1);
    expect(await countRows(ctx.db, 'job_applications')).toBe(0);
  });

  it('counts from the latest activity: a note keeps an old lead that would otherwise go', async () => {
    const quiet = await send('contact', 'retention: quiet');
    const worked = await send('contact', 'retention: worked');
    const elevenMonths = Date.now() - monthsBefore(Date.now(), 11);
    await age(quiet, elevenMonths);
    await age(worked, elevenMonths);
    await addNote(ctx.db, worked, 'Клієнт повернувся з новим запитом', actor, systemClock);

    const report = await purgeExpired(ctx.db, { now: new Date(Date.now() + 60 * DAY) });
    expect(report.leads.contact).toBe(1);
    const left = await leadIds();
    expect(left).toContain(worked);
    expect(left).not.toContain(quiet);
  });

  it('a dry run counts what a run would remove and changes nothing', async () => {
    const lead = await send('applications', 'retention: dry run');
    const later = new Date(Date.now() + 365 * DAY);
    const before = { leads: await countRows(ctx.db, 'leads'), outbox: await ctx.db.kysely.selectFrom('lead_outbox').select(['id', 'payload', 'payload_removed_at']).orderBy('id').execute() };

    const dry = await purgeExpired(ctx.db, { now: later, dryRun: true });
    expect(dry.leads.applications).toBeGreaterThanOrEqual(1);
    expect(dry.rows).toEqual({});
    expect(await countRows(ctx.db, 'leads')).toBe(before.leads);
    expect(await ctx.db.kysely.selectFrom('lead_outbox').select(['id', 'payload', 'payload_removed_at']).orderBy('id').execute()).toEqual(before.outbox);
    expect(await leadIds()).toContain(lead);

    const run = await purgeExpired(ctx.db, { now: later });
    expect(run.leads).toEqual(dry.leads);
  });

  it('removes the personal fields of a delivered notification copy after its period, keeping the record of the delivery', async () => {
    const lead = await send('contact', 'retention: copy', { email: VALID_CONTACT.email });
    await eventually('the delivery', () => ctx.db.kysely.selectFrom('lead_outbox').select(['status']).orderBy('id', 'desc').executeTakeFirstOrThrow(), (row) => row.status === 'delivered', 5_000);
    const row = await ctx.db.kysely.selectFrom('lead_outbox').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    const original = JSON.parse(row.payload) as Record<string, unknown>;
    expect(row.payload).toContain(VALID_CONTACT.email);

    const deliveredAt = new Date(String(ctx.db.dialect.readTimestamp(row.delivered_at))).getTime();
    expect((await purgeExpired(ctx.db, { now: new Date(deliveredAt + (NOTIFICATION_COPY_RETENTION_DAYS - 1) * DAY) })).notificationCopies).toBe(0);
    const report = await purgeExpired(ctx.db, { now: new Date(deliveredAt + (NOTIFICATION_COPY_RETENTION_DAYS + 1) * DAY) });
    expect(report.notificationCopies).toBeGreaterThanOrEqual(1);

    const cut = await ctx.db.kysely.selectFrom('lead_outbox').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(JSON.parse(cut.payload)).toEqual({ kind: 'contact', id: original.id, idempotency_key: original.idempotency_key, created_at: original.created_at });
    expect(cut.payload).not.toContain(VALID_CONTACT.email);
    expect(cut.payload_removed_at).not.toBeNull();
    expect({ status: cut.status, channel: cut.channel }).toEqual({ status: 'delivered', channel: 'webhook' });
    // The lead itself is younger than its period: still there.
    expect(await leadIds()).toContain(lead);
  });

  it('works through many leads in small batches', async () => {
    for (let i = 0; i < 25; i += 1) await send('applications', `retention: batch ${i}`);
    const due = await countRows(ctx.db, 'job_applications');
    expect(due).toBeGreaterThanOrEqual(25);
    const report = await purgeExpired(ctx.db, { now: new Date(Date.now() + 365 * DAY), batchSize: 10 });
    expect(report.leads.applications).toBe(due);
    expect(report.rows.job_applications).toBe(due);
    expect(await countRows(ctx.db, 'job_applications')).toBe(0);
  });
});

describe('batch sizes', () => {
  // A clock the test moves: each batch "takes" the time it is given.
  function sizerWithBatchTimes(most: number) {
    let now = 0;
    const sizer = new BatchSizer(most, () => now);
    // Each batch is full and answers the size it was given.
    const batch = async (ms: number) => {
      let given = 0;
      const { count, more } = await sizer.run(async (size) => ((now += ms), (given = size)));
      expect([count, more]).toEqual([given, true]);
      return given;
    };
    return { sizer, batch };
  }

  it('starts small, grows batches that are quick, at most doubling and never past the most, and shrinks slow ones', async () => {
    const { sizer, batch } = sizerWithBatchTimes(100);
    expect(await batch(BATCH_TARGET_MS / 10)).toBe(10);
    expect(sizer.next).toBe(20);
    await batch(BATCH_TARGET_MS / 10);
    await batch(BATCH_TARGET_MS / 10);
    await batch(BATCH_TARGET_MS / 10);
    expect(sizer.next).toBe(100);
    await batch(BATCH_TARGET_MS * 5);
    expect(sizer.next).toBe(20);
    // However slow, a batch still takes one row, so the purge always moves on.
    await batch(BATCH_TARGET_MS * 1000);
    expect(sizer.next).toBe(1);
    expect([sizer.batches, sizer.longestMs]).toEqual([6, BATCH_TARGET_MS * 1000]);
  });
});
