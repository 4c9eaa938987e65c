import type { FastifyBaseLogger } from 'fastify';
import { createDatabase, type Database } from '../../../../src/platform/db/connection';
import { RETENTION_LEASE_TTL_MS, RETENTION_PURGE_INTERVAL_MS, startRetentionPurge, type RetentionSchedule } from '../../../../src/site/leads/retention/retention-schedule';
import { storeSubmission } from '../../../../src/site/leads/submissions/store-submission';
import { VALID_CONTACT } from '../../../helpers/app';
import { openMigratedTestDatabase, countRows, type MigratedTestDatabase } from '../../../helpers/database';

// Several API processes on one database: the purge is the site's work, made by one of them.

const HOUR = 60 * 60 * 1000;
const YEAR = 366 * 24 * HOUR;

/** A process's log: the purge's lines as they were written. */
function captureLog(): { log: FastifyBaseLogger; lines: { level: string; data: Record<string, unknown>; message: string }[] } {
  const lines: { level: string; data: Record<string, unknown>; message: string }[] = [];
  const write = (level: string) => (data: Record<string, unknown>, message: string) => lines.push({ level, data, message });
  return { log: { info: write('info'), warn: write('warn'), error: write('error'), debug: () => undefined } as unknown as FastifyBaseLogger, lines };
}

let testDb: MigratedTestDatabase;
const opened: Database[] = [];
const started: RetentionSchedule[] = [];

beforeEach(async () => {
  testDb = await openMigratedTestDatabase();
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((schedule) => schedule.stop()));
  await Promise.all(opened.splice(0).map((db) => db.destroy()));
  await testDb.close();
});

/** An API process's purge on the test database, on `clock`, with its own connection and log. */
function startProcess(clock: () => number) {
  const db = createDatabase(testDb.url);
  opened.push(db);
  const { log, lines } = captureLog();
  const schedule = startRetentionPurge(db, log, { now: clock });
  started.push(schedule);
  return { schedule, ran: () => lines.filter((line) => line.message === 'privacy: retention purge ran') };
}

async function storeContact(message: string): Promise<void> {
  const { website: _honeypot, ...submission } = VALID_CONTACT;
  await storeSubmission(testDb.db, { kind: 'contact', submission: { ...submission, service_type: 'smm', message } }, { user_agent: null, referrer: null, attribution: null }, { channels: [] });
}

it('runs once for the site: the process holding the lease purges, the others skip, and one takes over when it stops', async () => {
  await storeContact('old enough to go');
  let now = Date.now() + YEAR;
  const clock = () => now;
  const first = startProcess(clock);
  await first.schedule.runOnce();
  const second = startProcess(clock);
  await second.schedule.runOnce();

  expect(first.ran()).toHaveLength(1);
  expect(first.ran()[0]!.data).toMatchObject({ leads: { spam: 0, contact: 1, applications: 0 } });
  // Counts only, never what was removed.
  expect(JSON.stringify(first.ran())).not.toContain(VALID_CONTACT.email);
  expect(second.ran()).toHaveLength(0);
  expect(await countRows(testDb.db, 'leads')).toBe(0);

  // At the next hourly run the same process purges again; the other, asking first, still does not.
  now += RETENTION_PURGE_INTERVAL_MS;
  await second.schedule.runOnce();
  await first.schedule.runOnce();
  expect([first.ran().length, second.ran().length]).toEqual([2, 0]);

  // The holder stops (a deploy): the lease is given up and the other process runs the next purge.
  await first.schedule.stop();
  now += HOUR;
  await storeContact('also old');
  now += YEAR;
  expect(await second.schedule.runOnce()).toMatchObject({ leads: { contact: 1 } });
  expect(second.ran()).toHaveLength(1);
  expect(await countRows(testDb.db, 'leads')).toBe(0);
});

it('takes over from a process that died holding the lease once its lease lapses', async () => {
  let now = Date.now() + YEAR;
  const clock = () => now;
  const dead = startProcess(clock);
  await dead.schedule.runOnce();
  expect(dead.ran()).toHaveLength(1);
  // It dies: no stop, so the lease is not given up; its timer is simply never heard from again.
  started.splice(started.indexOf(dead.schedule), 1);

  const other = startProcess(clock);
  await other.schedule.runOnce();
  expect(other.ran()).toHaveLength(0);
  now += RETENTION_LEASE_TTL_MS + 1;
  await other.schedule.runOnce();
  expect(other.ran()).toHaveLength(1);
});
