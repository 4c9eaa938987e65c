import type { ChannelName } from '../../../platform/config/leads';
import type { Db } from '../../../platform/db/connection';
import { CachedRead } from '../../../platform/lib/cached-read';
import type { Clock } from '../../../platform/lib/clock';
import type { LeadPayload } from '../lead/lead-payload';
import { enqueueLead } from '../outbox/outbox-repository';
import { FollowUpSettingsCache, type StoredFollowUpSettings } from './follow-up-settings';
import { nextAssignee, readRouting, recordAutomaticAssignment, type RoutingMembers } from './lead-routing';
import { findEarlierLead } from './person-link';
import { queueVisitorReply } from './visitor-reply';

declare module 'fastify' {
  interface FastifyInstance {
    /** What happens as a lead is let through (person, assignee, notifications, the visitor's reply); the console sets it. */
    leadFollowUp: LeadFollowUp;
  }
}

/** A lead let through: stored and not held, or released by «Не спам». */
export interface LetThrough {
  leadId: number;
  /** The lead as its notifications carry it (person and assignee are added here). */
  payload: LeadPayload;
  keys: { email_key: string | null; phone_key: string | null };
  /** The lead's assignee already (one set by hand before «Не спам»): kept. */
  assigneeId: number | null;
  channels: readonly ChannelName[];
  at: Date;
  /** `state()`, read before the caller's transaction began: on SQLite a read outside it would wait for the one connection the transaction holds. */
  state: FollowUpState;
}

/** What admins set, as leads let through use it: re-read every few seconds, not per lead. */
export interface FollowUpState {
  settings: StoredFollowUpSettings;
  routing: RoutingMembers;
}

/**
 * The work that starts as a lead is let through, inside the transaction that lets it through: it
 * joins the person who wrote before, goes to the next member in turn, and is queued to the agency's
 * channels (its text saying «повторне звернення» and who has it) and, when e-mail is configured, as
 * a reply to the visitor. Never for a lead held as spam.
 */
export class LeadFollowUp {
  readonly settings: FollowUpSettingsCache;
  /** Who takes which leads; the console forgets it on a change (other processes re-read it within seconds). */
  readonly routing: CachedRead<RoutingMembers>;

  constructor(
    db: Db,
    /** Whether replies can be sent (e-mail is configured). */
    readonly replies: boolean,
    readonly clock: Clock,
  ) {
    this.settings = new FollowUpSettingsCache(db);
    this.routing = new CachedRead(() => readRouting(db));
  }

  async state(): Promise<FollowUpState> {
    const [settings, routing] = await Promise.all([this.settings.get(), this.routing.get()]);
    return { settings, routing };
  }

  async letThrough(db: Db, lead: LetThrough): Promise<LeadPayload> {
    const { leadId, at } = lead;
    const earlier = await findEarlierLead(db, lead.keys, at, leadId);
    const assignee = lead.assigneeId === null ? await nextAssignee(db, lead.payload.kind, lead.state.routing) : undefined;
    if (earlier || assignee) {
      await db.kysely
        .updateTable('leads')
        .set({ ...(earlier && { person_id: earlier.personId }), ...(assignee && { assignee_id: assignee.id }) })
        .where('id', '=', leadId)
        .execute();
    }
    if (assignee) await recordAutomaticAssignment(db, leadId, assignee, at.toISOString());
    const payload: LeadPayload = {
      ...lead.payload,
      ...(earlier && { person: { leads: earlier.leads + 1, earlier: { id: earlier.submissionId, kind: earlier.kind, received_at: earlier.receivedAt } } }),
      ...(assignee && { assignee }),
    };
    // The outbox keeps the real time (its retries are real), whatever the follow-up's clock says.
    await enqueueLead(db, payload, lead.channels, new Date());
    if (this.replies) await queueVisitorReply(db, payload, lead.state.settings);
    return payload;
  }
}
