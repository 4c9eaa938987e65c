import { workingMsBetween } from '@agency/shared';
import { sql, type Kysely } from 'kysely';

/*
 * FROZEN once it has run on a live database: never edit it; add a new one.
 *
 * The work after a lead arrives.
 * - leads.person_id: the leads of one person (same e-mail or phone within 90 days) share it (the
 *   first lead's id); null for a lead of nobody else's. Indexed with the id: the inbox shows each
 *   person once.
 * - leads.first_response_at / _by / _minutes: staff's first status change or note, who made it,
 *   and how many working minutes the lead waited for it. Filled here from the history.
 * - leads.overdue_at: when the lead was found waiting past the response target (and its alert
 *   queued, once). Leads already past the default target are marked so here: no alert storm at upgrade.
 * - staff_members.away, telegram_chat_id: skipped by assignment; where an overdue alert reaches them.
 * - lead_routing: which members take which kind of lead in turn; lead_routing_turns: each kind's
 *   count of leads assigned, the turn of the next one.
 * - lead_follow_up_settings: the one row of what admins set (reply texts, response target),
 *   version-checked; none until the first change: the API's defaults hold.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('leads').addColumn('person_id', 'integer').execute();
  await db.schema.alterTable('leads').addColumn('first_response_at', 'text').execute();
  await db.schema.alterTable('leads').addColumn('first_response_by', 'integer', (col) => col.references('staff_members.id')).execute();
  await db.schema.alterTable('leads').addColumn('first_response_minutes', 'integer').execute();
  await db.schema.alterTable('leads').addColumn('overdue_at', 'text').execute();
  await db.schema.createIndex('leads_person_idx').on('leads').columns(['person_id', 'id']).where(sql.ref('person_id'), 'is not', null).execute();
  // The overdue check's candidates: leads nobody answered and nobody was alerted about.
  await db.schema
    .createIndex('leads_waiting_idx')
    .on('leads')
    .column('received_at')
    .where(sql<boolean>`first_response_at is null and overdue_at is null`)
    .execute();
  await db.schema.createIndex('leads_first_response_idx').on('leads').columns(['first_response_at']).where(sql.ref('first_response_at'), 'is not', null).execute();

  await db.schema.alterTable('staff_members').addColumn('away', 'integer', (col) => col.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('staff_members').addColumn('telegram_chat_id', 'text').execute();
  await db.schema
    .createTable('lead_routing')
    .addColumn('member_id', 'integer', (col) => col.notNull().references('staff_members.id'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('lead_routing_pk', ['kind', 'member_id'])
    .execute();
  await db.schema
    .createTable('lead_routing_turns')
    .addColumn('kind', 'text', (col) => col.primaryKey())
    .addColumn('turns', 'integer', (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('lead_follow_up_settings')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('replies', 'text', (col) => col.notNull())
    .addColumn('target_minutes', 'integer', (col) => col.notNull())
    .addColumn('version', 'integer', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('updated_by', 'integer', (col) => col.references('staff_members.id').onDelete('set null'))
    .execute();

  // The first response of each lead worked before: its first note or status change by a member
  // (marking spam and back is not an answer).
  const firsts = await db
    .selectFrom('lead_history')
    .innerJoin('leads', 'leads.id', 'lead_history.lead_id')
    .select(['lead_history.lead_id', 'lead_history.at', 'lead_history.actor_id', 'leads.received_at'])
    .where('lead_history.actor_id', 'is not', null)
    .where((eb) =>
      eb.or([eb('change', '=', 'note'), eb.and([eb('change', '=', 'status'), eb('old_value', '!=', 'spam'), eb('new_value', '!=', 'spam')])]),
    )
    .orderBy('lead_history.id')
    .execute();
  const seen = new Set<number>();
  for (const row of firsts) {
    const id = Number(row.lead_id);
    if (seen.has(id)) continue;
    seen.add(id);
    const minutes = Math.floor(workingMsBetween(new Date(row.received_at), new Date(row.at)) / 60_000);
    await db.updateTable('leads').set({ first_response_at: row.at, first_response_by: row.actor_id, first_response_minutes: minutes }).where('id', '=', id).execute();
  }
  // Leads already waiting past the default target (2 working hours) are overdue now, without an alert each.
  const now = new Date();
  const waiting = await db.selectFrom('leads').select(['id', 'received_at']).where('first_response_at', 'is', null).where('status', '=', 'new').execute();
  const overdue = waiting.filter((row) => workingMsBetween(new Date(row.received_at), now) >= 120 * 60_000).map((row) => Number(row.id));
  for (let start = 0; start < overdue.length; start += 500) {
    await db.updateTable('leads').set({ overdue_at: now.toISOString() }).where('id', 'in', overdue.slice(start, start + 500)).execute();
  }
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('lead_follow_up_settings').execute();
  await db.schema.dropTable('lead_routing_turns').execute();
  await db.schema.dropTable('lead_routing').execute();
  await db.schema.alterTable('staff_members').dropColumn('telegram_chat_id').execute();
  await db.schema.alterTable('staff_members').dropColumn('away').execute();
  await db.schema.dropIndex('leads_first_response_idx').execute();
  await db.schema.dropIndex('leads_waiting_idx').execute();
  await db.schema.dropIndex('leads_person_idx').execute();
  for (const column of ['overdue_at', 'first_response_minutes', 'first_response_by', 'first_response_at', 'person_id']) {
    await db.schema.alterTable('leads').dropColumn(column).execute();
  }
}
