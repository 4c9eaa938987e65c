import { createDatabase } from '../../src/db/connection';
import { parseStaffArgs } from '../../src/cli/staff';
import { UsageError } from '../../src/cli/parse-cli-args';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { runToExit } from '../helpers/server-process';

// Runs the real command (src/cli/staff.ts through tsx, the code `npm run staff` runs compiled).
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

const staff = (...args: string[]) => runToExit('src/cli/staff.ts', args, { DATABASE_URL: testDb.url, SITE_URL });

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
    for (const args of [['invite', 'not-an-email', '--role', 'admin'], ['invite', 'x@khvylia.example'], ['invite', 'x@khvylia.example', '--role', 'owner'], ['audit', '--since', 'yesterday'], ['remove']]) {
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
});
