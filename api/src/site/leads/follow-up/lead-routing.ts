import { recordAudit } from '../../../platform/audit/audit-log';
import type { Db } from '../../../platform/db/connection';
import type { SubmissionKind } from '../lead/lead-payload';

/**
 * Assignment rules: a new lead of a kind goes to the next of the members who take that kind, in
 * turn, skipping anyone marked away or removed. The turn is one counter per kind, moved by one
 * statement, so leads arriving together on several processes still go round.
 */

export interface Assignee {
  id: number;
  email: string;
}

/** By kind, the members who take it and are not away (nor removed), in the order turns go round. */
export type RoutingMembers = ReadonlyMap<SubmissionKind, readonly Assignee[]>;

export async function readRouting(db: Db): Promise<RoutingMembers> {
  const rows = await db.kysely
    .selectFrom('lead_routing')
    .innerJoin('staff_members', 'staff_members.id', 'lead_routing.member_id')
    .select(['lead_routing.kind', 'staff_members.id', 'staff_members.email'])
    .where('staff_members.removed_at', 'is', null)
    .where('staff_members.away', '=', 0)
    .orderBy('staff_members.id')
    .execute();
  const routing = new Map<SubmissionKind, Assignee[]>();
  for (const row of rows) routing.set(row.kind, [...(routing.get(row.kind) ?? []), { id: Number(row.id), email: row.email }]);
  return routing;
}

/** The member whose turn it is for a lead of `kind`; undefined when nobody takes it (the lead stays unassigned, flagged). */
export async function nextAssignee(db: Db, kind: SubmissionKind, routing: RoutingMembers): Promise<Assignee | undefined> {
  const members = routing.get(kind) ?? [];
  if (members.length === 0) return undefined;
  const { turns } = await db.kysely
    .insertInto('lead_routing_turns')
    .values({ kind, turns: 1 })
    .onConflict((conflict) => conflict.column('kind').doUpdateSet((eb) => ({ turns: eb('lead_routing_turns.turns', '+', 1) })))
    .returning('turns')
    .executeTakeFirstOrThrow();
  return members[(Number(turns) - 1) % members.length]!;
}

/** The lead's history row and audit entry of an assignment the rules made; inside the storing transaction. */
export async function recordAutomaticAssignment(db: Db, leadId: number, assignee: Assignee, at: string): Promise<void> {
  await db.kysely.insertInto('lead_history').values({ lead_id: leadId, actor_id: null, at, change: 'assignee', old_value: null, new_value: assignee.email }).execute();
  await recordAudit(db.kysely, { actorId: null, actor: 'assignment', action: 'lead-auto-assigned', target: `lead:${leadId}`, address: 'assignment', detail: { to: assignee.id, rule: 'round-robin' } }, new Date(at));
}
