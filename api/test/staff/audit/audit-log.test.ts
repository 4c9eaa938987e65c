import { sql } from 'kysely';
import { readAudit, recordAudit } from '../../../src/platform/audit/audit-log';
import { startTestApp, type TestContext } from '../../helpers/app';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await startTestApp();
}, 30_000);

afterAll(async () => {
  await ctx.close();
});

describe('the audit log', () => {
  it('reads entries newest first, in pages, since a time', async () => {
    for (let i = 0; i < 5; i += 1) {
      await recordAudit(ctx.db.kysely, { actorId: null, actor: 'cli', action: 'invitation-created', target: `email:${i}@khvylia.example`, address: 'cli', detail: { n: i } }, new Date(Date.UTC(2026, 0, 1 + i)));
    }
    const first = await readAudit(ctx.db, { limit: 2 });
    expect(first.entries.map((entry) => entry.detail)).toEqual([{ n: 4 }, { n: 3 }]);
    const second = await readAudit(ctx.db, { limit: 2, before: first.next! });
    expect(second.entries.map((entry) => entry.detail)).toEqual([{ n: 2 }, { n: 1 }]);
    const since = await readAudit(ctx.db, { limit: 10, since: '2026-01-04T00:00:00.000Z' });
    expect(since.entries.map((entry) => entry.detail)).toEqual([{ n: 4 }, { n: 3 }]);
    expect(since.next).toBeNull();
  });

  it('refuses any change or deletion of an entry, in the database itself', async () => {
    const before = await readAudit(ctx.db, { limit: 100 });
    await expect(sql`update staff_audit set actor = 'someone else'`.execute(ctx.db.kysely)).rejects.toThrow(/append-only/);
    await expect(sql`delete from staff_audit`.execute(ctx.db.kysely)).rejects.toThrow(/append-only/);
    expect(await readAudit(ctx.db, { limit: 100 })).toEqual(before);
  });
});
