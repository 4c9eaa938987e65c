import { migrateToLatest } from '../../../../src/platform/db/migrate';
import { setUpMigrationTest } from '../../../helpers/migration';

const suite = setUpMigrationTest('0019');

describe('migration 0019 (release managers)', () => {
  it('lets a member be a release manager with apps, keeping every member, their rights and what refers to them', async () => {
    const db = await suite.migrateToBefore();
    const at = '2026-01-01T00:00:00.000Z';
    const members = await db.kysely
      .insertInto('staff_members')
      .values([
        { email: 'owner@example.com', role: 'admin', created_at: at },
        { email: 'gone@example.com', role: 'editor', created_at: at, removed_at: at },
        { email: 'reader@example.com', role: 'viewer', created_at: at },
      ] as never)
      .returning('id')
      .execute();
    const [owner, gone, reader] = members.map((row) => Number(row.id)) as [number, number, number];
    await db.kysely.insertInto('lead_routing').values({ member_id: reader, kind: 'contact' }).execute();
    // What 0016 and 0017 made `on delete set null`: rebuilding the table by dropping it would clear these.
    await db.kysely.insertInto('spam_settings').values({ id: 1, threshold: 5, phrases: '[]', version: 1, updated_at: at, updated_by: owner } as never).execute();
    await db.kysely.insertInto('staff_invitations').values({ token_hash: 'h', email: 'new@example.com', role: 'viewer', invited_by: owner, created_at: at, expires_at: at } as never).execute();

    await migrateToLatest(db);

    const after = await db.kysely.selectFrom('staff_members').select(['id', 'email', 'role', 'removed_at', 'release_apps']).orderBy('id').execute();
    expect(after.map((row) => ({ ...row, id: Number(row.id) }))).toEqual([
      { id: owner, email: 'owner@example.com', role: 'admin', removed_at: null, release_apps: '[]' },
      { id: gone, email: 'gone@example.com', role: 'editor', removed_at: at, release_apps: '[]' },
      { id: reader, email: 'reader@example.com', role: 'viewer', removed_at: null, release_apps: '[]' },
    ]);
    expect(await db.kysely.selectFrom('staff_invitations').select(['role', 'release_apps']).execute()).toEqual([{ role: 'viewer', release_apps: '[]' }]);
    expect(Number((await db.kysely.selectFrom('spam_settings').select('updated_by').executeTakeFirstOrThrow()).updated_by)).toBe(owner);
    expect((await db.kysely.selectFrom('lead_routing').select('member_id').execute()).map((row) => Number(row.member_id))).toEqual([reader]);

    const releases = await db.kysely
      .insertInto('staff_members')
      .values({ email: 'blog@example.com', role: 'release_manager', release_apps: '["blog"]', created_at: at })
      .returning(['id', 'role', 'release_apps'])
      .executeTakeFirstOrThrow();
    expect(releases).toMatchObject({ role: 'release_manager', release_apps: '["blog"]' });
    // Ids go on from the last one; one live member per e-mail still; other roles still refused.
    expect(Number(releases.id)).toBeGreaterThan(reader);
    await expect(db.kysely.insertInto('staff_members').values({ email: 'owner@example.com', role: 'viewer', created_at: at }).execute()).rejects.toThrow();
    await expect(db.kysely.insertInto('staff_members').values({ email: 'x@example.com', role: 'owner' as never, created_at: at }).execute()).rejects.toThrow();
    // Members still may not vanish from under what refers to them.
    await expect(db.kysely.deleteFrom('staff_members').where('id', '=', reader).execute()).rejects.toThrow();
  });
});
