import { sql } from 'kysely';
import { migrateToLatest } from '../../../../src/platform/db/migrate';
import { purgeExpired } from '../../../../src/site/leads/retention/retention-purge';
import { sqliteSearchIndexHolds } from '../../../helpers/database';
import { setUpMigrationTest } from '../../../helpers/migration';

const suite = setUpMigrationTest('0013');

describe('migration 0013 (privacy retention)', () => {
  it('dates each existing lead’s last activity from its latest change or note, leaves its notifications as lead copies, and clears lost words from the search index', async () => {
    const db = await suite.migrateToBefore();
    const common = { user_agent: null, referrer: null, company: '', service_type: '', phone: '0671112233' };
    const submissions = await db.kysely
      .insertInto('contact_messages')
      .values([
        { ...common, name: 'Тиха', email: 'quiet@example.com', message: 'Без змін', created_at: db.dialect.timestamp(new Date('2025-01-01T10:00:00Z')) },
        { ...common, name: 'З нотаткою', email: 'noted@example.com', message: 'Є нотатка', created_at: db.dialect.timestamp(new Date('2025-01-01T10:00:00Z')) },
      ])
      .returning('id')
      .execute();
    const member = await db.kysely.insertInto('staff_members').values({ email: 'admin@example.com', role: 'admin', created_at: '2025-01-01T00:00:00.000Z' }).returning('id').executeTakeFirstOrThrow();
    const leads = await db.kysely
      .insertInto('leads' as never)
      .values(
        submissions.map((row) => ({ kind: 'contact', submission_id: row.id, received_at: '2025-01-01T10:00:00.000Z', source: '', status: 'new', version: 1, updated_at: '2025-01-01T10:00:00.000Z' })) as never,
      )
      .returning('id' as never)
      .execute();
    const [quiet, noted] = (leads as { id: number }[]).map((row) => Number(row.id));
    await db.kysely.insertInto('lead_notes').values({ lead_id: noted!, author_id: Number(member.id), text: 'Клієнт повернувся', created_at: '2025-11-20T09:00:00.000Z' }).execute();
    await db.kysely.insertInto('lead_history').values({ lead_id: noted!, actor_id: Number(member.id), at: '2025-11-20T09:00:00.000Z', change: 'note', old_value: null, new_value: null }).execute();
    await db.kysely
      .insertInto('lead_outbox')
      .values({
        submission_kind: 'contact',
        submission_id: Number(submissions[0]!.id),
        channel: 'webhook',
        payload: '{}',
        next_attempt_at: db.dialect.timestamp(new Date('2025-01-01T10:00:00Z')),
        give_up_at: db.dialect.timestamp(new Date('2025-01-02T10:00:00Z')),
        created_at: db.dialect.timestamp(new Date('2025-01-01T10:00:00Z')),
      } as never)
      .execute();
    // A word a lead's search text lost before this migration: SQLite's index still stored it.
    const sqlite = db.dialect.name === 'sqlite';
    if (sqlite) {
      await sql`insert into lead_search (rowid, text) values (${quiet!}, 'Тиха zefirka')`.execute(db.kysely);
      await sql`update lead_search set text = 'Тиха' where rowid = ${quiet!}`.execute(db.kysely);
      expect(await sqliteSearchIndexHolds(db, 'zefirka')).toBe(true);
    }

    await migrateToLatest(db);

    if (sqlite) expect(await sqliteSearchIndexHolds(db, 'zefirka')).toBe(false);

    const activity = await db.kysely.selectFrom('leads').select(['id', 'last_activity_at']).orderBy('id').execute();
    expect(activity.map((row) => [Number(row.id), row.last_activity_at])).toEqual([
      [quiet, '2025-01-01T10:00:00.000Z'],
      [noted, '2025-11-20T09:00:00.000Z'],
    ]);
    expect(await db.kysely.selectFrom('lead_outbox').select(['event', 'payload_removed_at']).execute()).toEqual([{ event: 'lead.created', payload_removed_at: null }]);
    // A year after the note: the quiet lead has long passed its 12 months, the noted one just not.
    const report = await purgeExpired(db, { now: new Date('2026-11-19T09:00:00Z') });
    expect(report.leads.contact).toBe(1);
    expect((await db.kysely.selectFrom('leads').select('id').execute()).map((row) => Number(row.id))).toEqual([noted]);
  });
});
