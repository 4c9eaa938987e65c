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

/** The member whose turn it is for a lead of `kind`; undefined when nobody takes it (the lead stays unassigned, flagged). */
export async function nextAssignee(db: Db, kind: SubmissionKind): Promise<Assignee | undefined> {
  const members = await db.kysely
    .selectFrom('lead_routing')
    .innerJoin('staff_members', 'staff_members.id', 'lead_routing.member_id')
    .select(['staff_members.id', 'staff_members.email'])
    .where('lead_routing.kind', '=', kind)
    .where('staff_members.removed_at', 'is', null)
    .where('staff_members.away', '=', 0)
    .orderBy('staff_members.id')
    .execute();
  if (members.length === 0) return undefined;
  const { turns } = await db.kysely
    .insertInto('lead_routing_turns')
    .values({ kind, turns: 1 })
    .onConflict((conflict) => conflict.column('kind').doUpdateSet((eb) => ({ turns: eb('lead_routing_turns.turns', '+', 1) })))
    .returning('turns')
    .executeTakeFirstOrThrow();
  const member = members[(Number(turns) - 1) % members.length]!;
  return { id: Number(member.id), email: member.email };
}

/** The lead's history row and audit entry of an assignment the rules made; inside the storing transaction. */
export async function recordAutomaticAssignment(db: Db, leadId: number, assignee: Assignee, at: string): Promise<void> {
  await db.kysely.insertInto('lead_history').values({ lead_id: leadId, actor_id: null, at, change: 'assignee', old_value: null, new_value: assignee.email }).execute();
  await recordAudit(db.kysely, { actorId: null, actor: 'assignment', action: 'lead-auto-assigned', target: `lead:${leadId}`, address: 'assignment', detail: { to: assignee.id, rule: 'round-robin' } }, new Date(at));
}
