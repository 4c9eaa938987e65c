import type { AuditEntry } from '@agency/shared';
import type { Db } from '../db/connection';
import type { AppKysely } from '../db/schema';

/**
 * The append-only record of what staff did: sign-ins (and failed ones), invitations, role
 * changes (and a release manager's apps), removals, sessions ended by an admin, and work on
 * leads. Actor, time, address and target; never a lead's contents (a lead is named by its id).
 * The table's triggers refuse any UPDATE or DELETE.
 */
export type AuditAction =
  | 'sign-in'
  | 'sign-in-failed'
  | 'sign-out'
  | 'invitation-created'
  | 'invitation-accepted'
  | 'role-changed'
  | 'release-apps-changed'
  | 'member-removed'
  | 'session-ended'
  | 'passkey-added'
  | 'totp-enabled'
  | 'recovery-codes-renewed'
  | 'lead-status-changed'
  | 'lead-assigned'
  | 'lead-note-added'
  | 'leads-marked-spam'
  | 'lead-not-spam'
  | 'spam-settings-changed'
  | 'leads-exported'
  | 'lead-corrected'
  | 'data-exported'
  | 'data-erased'
  | 'article-created'
  | 'article-taken-over'
  | 'article-restored'
  | 'article-published'
  | 'article-scheduled'
  | 'article-unpublished'
  | 'article-schedule-cancelled'
  | 'service-created'
  | 'service-changed'
  | 'service-published'
  | 'service-unpublished'
  | 'services-reordered'
  | 'lead-auto-assigned'
  | 'lead-unlinked'
  | 'follow-up-settings-changed'
  | 'lead-routing-changed'
  | 'weekly-report-changed'
  | 'release-staged'
  | 'release-canary'
  | 'release-promoted'
  | 'release-rolled-back'
  | 'release-aborted'
  | 'remote-override-set';

/** Who acts, as the log names them: a member, or the command line (`id` null, `actor` `cli`). */
export interface AuditActor {
  id: number | null;
  /** Their e-mail, or `cli`. */
  actor: string;
  address: string;
}

export interface AuditRecord {
  /** The member who acted; null for the command line or someone not signed in. */
  actorId: number | null;
  /** Who acted, as a person reads it: their e-mail, `cli`, or the e-mail someone tried. */
  actor: string;
  action: AuditAction;
  /** What was acted on: `member:3`, `lead:120`, `article:7`, `service:3`, `services`, `session`, `leads`, `releases:blog`, `subject:<keyed hash of a person>`. */
  target: string;
  address: string;
  detail?: Record<string, unknown>;
}

export async function recordAudit(kysely: AppKysely, record: AuditRecord, now = new Date()): Promise<void> {
  await kysely
    .insertInto('staff_audit')
    .values({
      at: now.toISOString(),
      actor_id: record.actorId,
      actor: record.actor,
      action: record.action,
      target: record.target,
      address: record.address,
      detail: JSON.stringify(record.detail ?? {}),
    })
    .execute();
}

/** Newest first, `limit` entries older than `before` (a seq) and not older than `since`. */
export async function readAudit(db: Db, { before, since, limit }: { before?: number; since?: string; limit: number }): Promise<{ entries: AuditEntry[]; next: number | null }> {
  let query = db.kysely.selectFrom('staff_audit').selectAll().orderBy('seq', 'desc').limit(limit + 1);
  if (before !== undefined) query = query.where('seq', '<', before);
  if (since !== undefined) query = query.where('at', '>=', new Date(since).toISOString());
  const rows = await query.execute();
  const entries = rows.slice(0, limit).map((row) => ({
    seq: Number(row.seq),
    at: row.at,
    actor: row.actor,
    action: row.action,
    target: row.target,
    address: row.address,
    detail: JSON.parse(row.detail) as Record<string, unknown>,
  }));
  return { entries, next: rows.length > limit ? entries[entries.length - 1]!.seq : null };
}
