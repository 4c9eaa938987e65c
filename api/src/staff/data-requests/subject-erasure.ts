import { randomUUID } from 'node:crypto';
import type { ErasureResult } from '@agency/shared';
import type { Db } from '../../platform/db/connection';
import { clearDeletedRows } from '../../platform/db/deleted-rows';
import { enqueueErasure, idempotencyKey, removeLeads } from '../../site/leads';
import { recordAudit, type AuditActor } from '../../platform/audit/audit-log';
import { findSubjectLeads, subjectHash, type DataSubject } from './data-subject';
import { erasureTarget } from './subject-report';

export interface ErasureOptions {
  /** Whether the leads webhook is configured: it is then told which leads were erased. */
  webhook: boolean;
  now?: Date;
  /**
   * Records the erasure outside the database (the backups' erasure journal) before it is made, so
   * a restore from an earlier backup erases the person again. When it fails, nothing is erased.
   */
  journal?: (entry: { hash: string; at: string }) => Promise<void>;
}

/**
 * Erases everything held about the person in one transaction: their leads with all that hangs
 * off them (see removeLeads). The audit log records that it happened, by whom and how many rows,
 * under the person's keyed hash; the webhook, when there is one, gets a `lead.erased` message
 * naming the leads by id, delivered through the outbox like a lead.
 *
 * It answers only after clearing what the deleted rows leave in the database's files (see
 * clearDeletedRows). SQLite: the write-ahead log, which still holds the pages as they were, is
 * checkpointed and truncated, even by an erasure that found nobody, so erasing again finishes one
 * that stopped there (WalBusyError: other connections kept the log in use). PostgreSQL: the tables
 * are vacuumed, so new rows overwrite the old ones' space.
 */
export async function eraseSubject(db: Db, subject: DataSubject, actor: AuditActor, options: ErasureOptions): Promise<ErasureResult> {
  const now = options.now ?? new Date();
  const hash = await subjectHash(db, subject);
  await options.journal?.({ hash, at: now.toISOString() });
  const result = await db.kysely.transaction().execute(async (kysely) => {
    const trx: Db = { kysely, dialect: db.dialect };
    const leads = await findSubjectLeads(trx, subject);
    const rows = await removeLeads(trx, leads);
    if (options.webhook && leads.length > 0) {
      await enqueueErasure(
        trx,
        {
          event: 'lead.erased',
          idempotency_key: `erasure-${randomUUID()}`,
          erased_at: now.toISOString(),
          leads: leads.map((lead) => ({ kind: lead.kind, id: lead.submission_id, idempotency_key: idempotencyKey(lead.kind, lead.submission_id) })),
        },
        now,
      );
    }
    await recordAudit(
      kysely,
      {
        actorId: actor.id,
        actor: actor.actor,
        action: 'data-erased',
        target: erasureTarget(hash),
        address: actor.address,
        detail: { leads: leads.length, rows },
      },
      now,
    );
    return { leads: leads.length, rows };
  });
  await clearDeletedRows(
    db,
    Object.entries(result.rows).flatMap(([table, count]) => (count > 0 ? [table] : [])),
  );
  return result;
}
