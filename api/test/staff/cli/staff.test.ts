import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DataSubjectReport } from '@agency/shared';
import { createDatabase, type Database } from '../../../src/platform/db/connection';
import { storeSubmission } from '../../../src/site/leads/submissions/store-submission';
import { parseStaffArgs } from '../../../src/staff/cli/staff';
import { UsageError } from '../../../src/platform/cli/parse-cli-args';
import { createTestDatabase, sqliteFilesHolding, type TestDatabase } from '../../helpers/database';
import { runToExit } from '../../helpers/server-process';

// Runs the real command (src/staff/cli/staff.ts, compiled, as `npm run staff` runs it).
jest.setTimeout(60_000);

const SITE_URL = 'https://khvylia.example';
let testDb: TestDatabase;

beforeAll(async () => {
  // A database nothing ever migrated: the first admin is invited before the site first starts.
  testDb = await createTestDatabase();
});

afterAll(async () => {
  await testDb.drop();
});

const staff = (...args: string[]) => runToExit('src/staff/cli/staff.ts', args, { DATABASE_URL: testDb.url, SITE_URL });

describe('npm run staff', () => {
  it('invites the first admin on a fresh database: a one-time link, its token stored only as a hash', async () => {
    const { code, stdout } = await staff('invite', 'Owner@Khvylia.example', '--role', 'admin');
    expect(code).toBe(0);
    const link = /https:\/\/khvylia\.example\/staff\/invite#([A-Za-z0-9_-]{43})/.exec(stdout);
    expect(link).not.toBeNull();
    expect(stdout).toContain('owner@khvylia.example');
    const db = createDatabase(testDb.url, { poolSize: 1 });
    try {
      const rows = await db.kysely.selectFrom('staff_invitations').selectAll().execute();
      expect(rows).toEqual([expect.objectContaining({ email: 'owner@khvylia.example', role: 'admin', invited_by: null, used_at: null })]);
      expect(JSON.stringify(rows)).not.toContain(link![1]);
    } finally {
      await db.destroy();
    }
  });

  it('prints the audit log of a period, oldest first', async () => {
    await staff('invite', 'second@khvylia.example', '--role', 'viewer');
    const { code, stdout } = await staff('audit', '--since', '1h');
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/cli {2}invitation-created {2}email:owner@khvylia\.example {2}cli \{"role":"admin"/);
    expect(lines[1]).toContain('email:second@khvylia.example');
    const json = JSON.parse((await staff('audit', '--format', 'json')).stdout) as { action: string }[];
    expect(json.map((entry) => entry.action)).toEqual(['invitation-created', 'invitation-created']);
  });

  it('refuses bad usage with a message and exit code 2, changing nothing', async () => {
    for (const args of [
      ['invite', 'not-an-email', '--role', 'admin'],
      ['invite', 'x@khvylia.example'],
      ['invite', 'x@khvylia.example', '--role', 'owner'],
      ['invite', 'x@khvylia.example', '--role', 'release_manager'],
      ['invite', 'x@khvylia.example', '--role', 'editor', '--apps', 'blog'],
      ['audit', '--since', 'yesterday'],
      ['remove'],
      ['purge', '--role', 'admin'],
      ['subject', 'olena'],
      ['subject', 'olena@example.com', '--erase', '--export', 'x.json'],
    ]) {
      const { code, stderr } = await staff(...args);
      expect([args, code]).toEqual([args, 2]);
      expect(stderr).toMatch(/Використання: npm run staff/);
    }
    const { stdout } = await staff('audit', '--format', 'json');
    expect(JSON.parse(stdout)).toHaveLength(2);
  });

  it('refuses to invite someone already in the team', async () => {
    expect(() => parseStaffArgs(['invite'])).toThrow(UsageError);
    const { code, stderr } = await staff('invite', 'owner@khvylia.example', '--role', 'viewer');
    // Invited, not yet joined: a second invitation is allowed until they join.
    expect(code).toBe(0);
    expect(stderr).toBe('');
  });

  it('invites a release manager of the apps named, in the apps’ own order', async () => {
    const { code, stdout } = await staff('invite', 'blog-team@khvylia.example', '--role', 'release_manager', '--apps', 'forms, blog');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Запрошення для blog-team@khvylia\.example \(release_manager: blog, forms\), діє до \S+:\nhttps:\/\/khvylia\.example\/staff\/invite#/);
    const db = createDatabase(testDb.url, { poolSize: 1 });
    try {
      const row = await db.kysely.selectFrom('staff_invitations').select(['role', 'release_apps']).where('email', '=', 'blog-team@khvylia.example').executeTakeFirstOrThrow();
      expect(row).toEqual({ role: 'release_manager', release_apps: '["blog","forms"]' });
    } finally {
      await db.destroy();
    }
  });

  it('says what is wrong with a release manager’s apps', () => {
    const refusal = (...args: string[]) => {
      try {
        parseStaffArgs(['invite', 'x@khvylia.example', ...args]);
      } catch (error) {
        if (error instanceof UsageError) return error.message;
        throw error;
      }
      throw new Error(`accepted: ${args.join(' ')}`);
    };
    expect(refusal('--role', 'release_manager')).toBe('Вкажіть застосунки менеджера релізів: --apps, наприклад --apps blog,forms (можна shell, home, blog, forms, staff)');
    expect(refusal('--role', 'release_manager', '--apps', ',')).toBe('Виберіть щонайменше один застосунок, релізами якого керуватиме менеджер релізів');
    expect(refusal('--role', 'release_manager', '--apps', 'blog,crm')).toBe('Невідомий застосунок «crm»: можна shell, home, blog, forms, staff');
    expect(refusal('--role', 'release_manager', '--apps', 'blog,blog')).toBe('Застосунок «blog» названо двічі');
    expect(refusal('--role', 'admin', '--apps', 'blog')).toBe('Застосунки призначають лише менеджерам релізів');
    expect(refusal('--role', 'owner')).toBe('Невідома роль «owner»: admin, editor, viewer або release_manager');
    expect(refusal('--role', 'release_manager', '--apps', 'blog', '--since', '1h')).toBe('--since не працює з invite');
    expect(parseStaffArgs(['invite', 'x@khvylia.example', '--role', 'viewer'])).toEqual({ command: 'invite', email: 'x@khvylia.example', role: 'viewer', releaseApps: [] });
  });

  describe('a person’s data and retention', () => {
    const PERSON = 'Marta.Cli@example.com';
    const exportFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'agency-staff-cli-')), 'marta.json');
    // The running site's connection, open throughout as a server's would be: on SQLite it keeps the
    // write-ahead log alive when a command's own connection closes (the last one out would fold it in).
    let server: Database;

    beforeAll(async () => {
      server = createDatabase(testDb.url, { poolSize: 1 });
      const meta = { user_agent: null, referrer: null, attribution: null };
      const contact = { name: 'Марта', email: PERSON, phone: '+380 63 444 55 66', company: '', service_type: '' as const, message: 'Хочемо рекламу' };
      await storeSubmission(server, { kind: 'contact', submission: contact }, meta, { channels: [] });
      await storeSubmission(server, { kind: 'contact', submission: { ...contact, email: 'other@example.com', phone: '0501234567' } }, meta, { channels: [] });
    });

    afterAll(async () => {
      await server.destroy();
      fs.rmSync(path.dirname(exportFile), { recursive: true, force: true });
    });

    it('shows what the next purge would remove, and removes nothing young', async () => {
      const dry = await staff('purge', '--dry-run');
      expect(dry).toMatchObject({ code: 0, stdout: 'Наступний запуск видалить: спам — 0, звернення — 0, заявки на вакансії — 0; копії у сповіщеннях, з яких прибрати персональні дані, — 0\n' });
      expect((await staff('purge')).stdout).toMatch(/^Видалено \(строк зберігання минув\): спам — 0, звернення — 0/);
    });

    it('shows, exports and erases everything held about a person, by e-mail or phone', async () => {
      const shown = await staff('subject', '0634445566');
      expect(shown.code).toBe(0);
      expect(shown.stdout.trim().split('\n')).toEqual([expect.stringMatching(/^№\d+ {2}Звернення {2}\S+ {2}Нова {2}Марта {2}Marta\.Cli@example\.com {2}\+380 63 444 55 66 {2}нотаток: 0$/)]);

      const exported = await staff('subject', PERSON.toLowerCase(), '--export', exportFile);
      expect(exported).toMatchObject({ code: 0, stdout: `Збережено у ${exportFile}: звернень і заявок — 1\n` });
      expect((fs.statSync(exportFile).mode & 0o777).toString(8)).toBe('600');
      const file = JSON.parse(fs.readFileSync(exportFile, 'utf8')) as DataSubjectReport;
      expect(file).toMatchObject({ format: 'agency-data-subject/1', subject: PERSON.toLowerCase(), matchedBy: 'email' });
      expect(file.leads[0]!.fields).toContainEqual({ name: 'message', value: 'Хочемо рекламу' });

      const erased = await staff('subject', PERSON, '--erase');
      expect(erased).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Видалено: звернень і заявок — 1, записів у базі — \d+\n$/) });
      // Not in the database's files either, the write-ahead log included, though the site's connection kept it.
      if (testDb.url.startsWith('sqlite:')) expect(sqliteFilesHolding(testDb.url, [PERSON, '+380 63 444 55 66'])).toEqual({});
      const after = await staff('subject', PERSON);
      expect(after.stdout).toMatch(/^Про marta\.cli@example\.com сайт нічого не зберігає\nРаніше видалено \S+ \(cli\): звернень і заявок — 1\n$/);
      // The other person's lead stays; the audit log names the person by a hash only.
      expect((await staff('subject', 'other@example.com')).stdout).toMatch(/^№\d+ /);
      const audit = (await staff('audit', '--format', 'json')).stdout;
      expect(audit).toContain('"action": "data-erased"');
      expect(audit.toLowerCase()).not.toContain(PERSON.toLowerCase());
    });
  });
});
