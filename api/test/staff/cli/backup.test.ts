import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateBackupKey } from '../../../src/platform/backup/backup-cipher';
import { createDatabase } from '../../../src/platform/db/connection';
import { run } from '../../../src/staff/cli/backup';
import { run as runStaff } from '../../../src/staff/cli/staff';
import { agentRound } from '../../../src/platform/backup/postgres/backup-agent';
import { BackupService } from '../../../src/platform/backup/backup-service';
import { startScratchCluster } from '../../../src/platform/backup/postgres/postgres-scratch-cluster';
import { loadConfig } from '../../../src/platform/config';
import { describeOnPostgres, reachableTempDir, startArchivingCluster, type ArchivingCluster } from '../../platform/backup/postgres/archiving-cluster';
import { startTestApp, VALID_CONTACT, type TestContext } from '../../helpers/app';
import { createMigratedTestDatabase, testDialect, type TestDatabase } from '../../helpers/database';
import { BACKUP_SUITE_TIMEOUT_MS } from '../../helpers/backup-waits';
import { asPerson } from '../../helpers/person-submission';

jest.setTimeout(BACKUP_SUITE_TIMEOUT_MS);

/** The site on a SQLite file with backups on, and the shell's environment for `npm run backup`. */
async function siteWithBackups() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-cli-'));
  const testDb: TestDatabase = await createMigratedTestDatabase();
  const key = await generateBackupKey();
  const store = `file:${path.join(dir, 'backups')}`;
  const backup = { store, s3: { region: 'us-east-1', forcePathStyle: false }, intervalMs: 3_600_000, verifyIntervalMs: 24 * 3_600_000, key, keyFile: path.join(dir, 'unused-key.txt') };
  const ctx = await startTestApp({ backup }, testDb);
  const env = { DATABASE_URL: testDb.url, BACKUP_STORE: store, BACKUP_KEY: key };
  const file = testDb.url.slice('sqlite:'.length);
  return { dir, testDb, ctx, env, file };
}

let contactCount = 0;
/**
 * A person's contact message, sent as the form's script sends it: its e-mail, phone and message
 * its own, as another person's (the spam defence holds the same text from many e-mails). Its e-mail.
 */
async function sendLead(ctx: TestContext): Promise<string> {
  contactCount += 1;
  const email = `lead${contactCount}@example.com`;
  const lead = { ...VALID_CONTACT, email, phone: `+380 93 ${String(contactCount).padStart(7, '0')}`, message: `${VALID_CONTACT.message} Заявка ${contactCount}.` };
  const answer = await ctx.request('POST', '/api/contact', await asPerson(ctx, 'contact', lead));
  expect(answer.statusCode).toBe(201);
  return email;
}

async function storedEmails(url: string): Promise<string[]> {
  const db = createDatabase(url, { poolSize: 1 });
  try {
    return (await db.kysely.selectFrom('contact_messages').select('email').orderBy('id').execute()).map((row) => row.email);
  } finally {
    await db.destroy();
  }
}

function removeDatabaseFiles(file: string) {
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${file}${suffix}`, { force: true });
}

(testDialect() === 'sqlite' ? describe : describe.skip)('npm run backup on SQLite', () => {
  let site: Awaited<ReturnType<typeof siteWithBackups>>;
  beforeEach(async () => {
    site = await siteWithBackups();
  });
  afterEach(async () => {
    await site.ctx.close().catch(() => undefined);
    await site.testDb.drop();
    fs.rmSync(site.dir, { recursive: true, force: true });
  });

  test('after the disk is lost, a restore to that moment brings back every lead acknowledged before the last backup', async () => {
    const before = [await sendLead(site.ctx), await sendLead(site.ctx)];
    await site.ctx.app.backups!.backupNow('interval');
    const afterBackup = await sendLead(site.ctx);
    const lossAt = new Date();
    // The disk is gone: the database and its WAL with it, under a running site.
    removeDatabaseFiles(site.file);
    await site.ctx.app.close();

    const output = await run(['restore', '--time', lossAt.toISOString()], site.env);
    expect(output).toMatch(/^Restored backup \S+ taken .* into sqlite:/);
    const restored = await storedEmails(site.testDb.url);
    expect(restored).toEqual(before);
    // Lost: only what came after the last backup, within one backup interval (the RPO).
    expect(restored).not.toContain(afterBackup);
  });

  test('a planned stop takes a last backup, so a restore after it loses nothing', async () => {
    const sent = [await sendLead(site.ctx), await sendLead(site.ctx)];
    await site.ctx.app.close();
    removeDatabaseFiles(site.file);
    await run(['restore', '--time', new Date().toISOString()], site.env);
    expect(await storedEmails(site.testDb.url)).toEqual(sent);
  });

  test('a restore onto a database that holds data is refused unless forced', async () => {
    await sendLead(site.ctx);
    const { id } = await site.ctx.app.backups!.backupNow('manual');
    await sendLead(site.ctx);
    await site.ctx.app.close();
    await expect(run(['restore', id], site.env)).rejects.toThrow(/holds data: a restore would overwrite it/);
    expect(await storedEmails(site.testDb.url)).toHaveLength(2);
    await run(['restore', id, '--force'], site.env);
    expect(await storedEmails(site.testDb.url)).toHaveLength(1);
  });

  test('a changed or cut-short backup is refused by verify and by restore, and the database is left as it was', async () => {
    await sendLead(site.ctx);
    const { id, object } = await site.ctx.app.backups!.backupNow('manual');
    expect(await run(['verify', id], site.env)).toMatch(/restored into a scratch database and checked: integrity ok/);
    const dataFile = path.join(site.dir, 'backups', object);
    const good = fs.readFileSync(dataFile);
    await site.ctx.app.close();
    removeDatabaseFiles(site.file);

    const flipped = Buffer.from(good);
    flipped[flipped.length - 40] = (flipped[flipped.length - 40] ?? 0) ^ 0xff;
    for (const damaged of [flipped, good.subarray(0, good.length - 1000)]) {
      fs.writeFileSync(dataFile, damaged);
      await expect(run(['verify', id], site.env)).rejects.toThrow(`backup ${id} is damaged`);
      await expect(run(['restore', id], site.env)).rejects.toThrow(`backup ${id} is damaged`);
      expect(fs.existsSync(site.file)).toBe(false);
    }
  });

  test('list shows each backup with its drill, and a backup may be proven again', async () => {
    const { id } = await site.ctx.app.backups!.backupNow('manual');
    await run(['verify', id], site.env);
    expect(await run(['verify', id], site.env)).toMatch(/checked: integrity ok/);
    const listed = JSON.parse(await run(['list', '--format', 'json'], site.env)) as { id: string; verifiedAt: string | null; rowCounts: Record<string, number> }[];
    const entry = listed.find((backup) => backup.id === id);
    expect(entry?.verifiedAt).toEqual(expect.any(String));
    expect(entry?.rowCounts.contact_messages).toBe(0);
  });

  test('a person erased after a backup is erased again by a restore from it', async () => {
    const erased = await sendLead(site.ctx);
    const kept = await sendLead(site.ctx);
    const { id } = await site.ctx.app.backups!.backupNow('interval');
    expect(await runStaff(['subject', erased, '--erase'], site.env)).toMatch(/^Видалено: звернень і заявок — 1/);
    await site.ctx.app.close();
    removeDatabaseFiles(site.file);

    expect(await run(['restore', id], site.env)).toMatch(/people erased since then, erased again: 1/);
    expect(await storedEmails(site.testDb.url)).toEqual([kept]);
    // Nothing of the person is left in the restored files either.
    for (const suffix of ['', '-wal', '-shm']) {
      if (fs.existsSync(`${site.file}${suffix}`)) expect(fs.readFileSync(`${site.file}${suffix}`).includes(Buffer.from(erased))).toBe(false);
    }
  });

  test('an erasure the backup store cannot journal is refused and erases nothing', async () => {
    const email = await sendLead(site.ctx);
    // A store where a folder should be is a file: nothing can be written to it.
    const blocked = path.join(site.dir, 'blocked');
    fs.writeFileSync(blocked, '');
    await expect(runStaff(['subject', email, '--erase'], { ...site.env, BACKUP_STORE: `file:${blocked}` })).rejects.toThrow(/^Нічого не видалено/);
    expect(await storedEmails(site.testDb.url)).toEqual([email]);
  });
});

describeOnPostgres('npm run backup on PostgreSQL (the agent and a restore to a point in time)', () => {
  let cluster: ArchivingCluster;
  let app: TestContext;
  let env: Record<string, string>;
  const quiet = { info: () => undefined, error: () => undefined };

  beforeAll(async () => {
    cluster = await startArchivingCluster();
    env = {
      DATABASE_URL: cluster.server.url('site'),
      BACKUP_STORE: `file:${cluster.storeDir}`,
      BACKUP_KEY: cluster.identity,
      BACKUP_PG_DATA_DIR: cluster.dataDir,
      BACKUP_WAL_SPOOL: cluster.spoolDir,
    };
    const config = loadConfig(env);
    app = await startTestApp({ backup: config.backup }, { url: env.DATABASE_URL as string, drop: async () => undefined });
  });
  afterAll(async () => {
    await app?.close();
    await cluster?.stop();
  });

  test('leads acknowledged up to a moment come back from the base backup and the archived WAL, an erased person does not', async () => {
    const config = loadConfig(env);
    const service = BackupService.open({ config: config.backup, databaseUrl: config.databaseUrl, log: app.app.log }) as BackupService;
    const round = () => agentRound({ service, db: cluster.db, dataDir: cluster.dataDir, spoolDir: cluster.spoolDir, intervalMs: config.backup.intervalMs, verifyIntervalMs: config.backup.verifyIntervalMs, log: quiet });
    // The first round takes the base backup and proves it.
    const first = await round();
    expect(first.backup?.kind).toBe('postgres-base');
    expect(first.verified).toBe(first.backup?.id);

    const before = [await sendLead(app), await sendLead(app), await sendLead(app)];
    const moment = await cluster.serverTime();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const after = await sendLead(app);
    // Erased after the moment: the WAL replayed up to it still holds the person; the journal does not let them back.
    expect(await runStaff(['subject', before[1] as string, '--erase'], env)).toMatch(/^Видалено: звернень і заявок — 1/);
    await cluster.switchAndShip();
    expect((await round()).backup).toBeUndefined();

    // The cluster is lost; a new data directory is restored to the moment.
    const dataDir = path.join(reachableTempDir('agency-pg-restored-'), 'data');
    const output = await run(['restore', '--time', moment.toISOString(), '--data-dir', dataDir], env);
    expect(output).toMatch(/^Restored base backup \S+ into .* replayed to /);
    const restored = await startScratchCluster({ dataDir });
    try {
      expect(await storedEmails(restored.url('site'))).toEqual([before[0], before[2]]);
      expect(await storedEmails(restored.url('site'))).not.toContain(after);
    } finally {
      await restored.stop();
      fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
    }
  });

  test('a restore into a data directory that holds files is refused', async () => {
    const dataDir = reachableTempDir('agency-pg-occupied-');
    fs.writeFileSync(path.join(dataDir, 'PG_VERSION'), '18\n');
    try {
      await expect(run(['restore', '--time', new Date().toISOString(), '--data-dir', dataDir], env)).rejects.toThrow(/is not empty/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
