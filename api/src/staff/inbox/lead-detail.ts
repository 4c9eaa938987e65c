import { ATTRIBUTION_KEYS, AUTOMATIC_ACTOR, LEAD_FIELDS, SERVICE_TYPES, type LeadDetail, type PersonLead } from '@agency/shared';
import type { Db } from '../../platform/db/connection';
import { findLeadRow, findLeadRows, leadSummaries, type LeadRow } from './inbox-repository';

const SERVICE_LABELS: Record<string, string> = Object.fromEntries(SERVICE_TYPES.map((type) => [type.value, type.label]));

/**
 * A lead whole: every field as the visitor sent it (the console shows it as text), where the
 * visit came from, each channel's delivery, the notes and every change with who and when.
 */
export async function findLeadDetail(db: Db, id: number, now = new Date()): Promise<LeadDetail | undefined> {
  const row = await findLeadRow(db, id);
  if (!row) return undefined;
  const [summary] = await leadSummaries(db, [row], now);
  const table = row.kind === 'contact' ? 'contact_messages' : 'job_applications';
  const submission = (await db.kysely.selectFrom(table).selectAll().where('id', '=', Number(row.submission_id)).executeTakeFirst()) as Record<string, unknown> | undefined;
  const text = (name: string) => {
    const value = submission?.[name];
    if (name === 'service_type' && typeof value === 'string') return SERVICE_LABELS[value] ?? value;
    return value === null || value === undefined ? '' : String(value);
  };
  const attribution: Record<string, string | null> = { referrer: (submission?.referrer as string | null) ?? null, user_agent: (submission?.user_agent as string | null) ?? null };
  for (const key of ATTRIBUTION_KEYS) attribution[key] = (submission?.[key] as string | null | undefined) ?? null;

  const deliveries = await db.kysely
    .selectFrom('lead_outbox')
    .select(['channel', 'status', 'attempts', 'last_error', 'delivered_at'])
    .where('submission_kind', '=', row.kind)
    .where('submission_id', '=', Number(row.submission_id))
    .orderBy('id')
    .execute();
  const notes = await db.kysely
    .selectFrom('lead_notes')
    .innerJoin('staff_members', 'staff_members.id', 'lead_notes.author_id')
    .select(['lead_notes.id', 'email', 'text', 'lead_notes.created_at'])
    .where('lead_id', '=', id)
    .orderBy('lead_notes.id')
    .execute();
  const others = await personOthersOf(db, row, now);
  const history = await db.kysely
    .selectFrom('lead_history')
    .leftJoin('staff_members', 'staff_members.id', 'lead_history.actor_id')
    .select(['at', 'email', 'change', 'old_value', 'new_value'])
    .where('lead_id', '=', id)
    .orderBy('lead_history.id')
    .execute();

  return {
    ...summary!,
    fields: LEAD_FIELDS[row.kind].map((name) => ({ name, value: text(name) })),
    attribution,
    deliveries: deliveries.map((delivery) => ({
      channel: delivery.channel,
      status: delivery.status,
      attempts: Number(delivery.attempts),
      lastError: delivery.last_error,
      deliveredAt: delivery.delivered_at === null || delivery.delivered_at === undefined ? null : db.dialect.readTimestamp(delivery.delivered_at),
    })),
    notes: notes.map((note) => ({ id: Number(note.id), author: note.email, text: note.text, createdAt: note.created_at })),
    history: history.map((change) => ({ at: change.at, actor: change.email ?? AUTOMATIC_ACTOR, change: change.change, oldValue: change.old_value, newValue: change.new_value })),
    personOthers: others,
    linked: others.length > 0,
  };
}

/** The person's other leads (spam aside), newest first. */
async function personOthersOf(db: Db, row: LeadRow, now: Date): Promise<PersonLead[]> {
  if (row.person_id === null) return [];
  const rows = await findLeadRows(db, (query) => query.where('leads.person_id', '=', Number(row.person_id)).where('leads.id', '!=', Number(row.id)).where('leads.status', '!=', 'spam').orderBy('leads.id', 'desc'));
  const others = await leadSummaries(db, rows, now);
  return others.map((lead) => ({ id: lead.id, kind: lead.kind, receivedAt: lead.receivedAt, status: lead.status, subject: lead.subject }));
}
