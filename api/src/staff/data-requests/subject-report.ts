import type { DataSubjectReport, SubjectLead } from '@agency/shared';
import type { Db } from '../../platform/db/connection';
import { recordAudit, type AuditActor } from '../../platform/audit/audit-log';
import { findLeadDetail } from '../inbox/lead-detail';
import { findSubjectLeads, subjectHash, subjectText, type DataSubject } from './data-subject';

/** The audit target a person's export or erasure is recorded under: their keyed hash, never their address. */
export function erasureTarget(hash: string): string {
  return `subject:${hash}`;
}

/** The notification copies the outbox keeps of a lead (its payloads, as sent). */
async function notificationCopies(db: Db, kind: string, submissionId: number): Promise<SubjectLead['notifications']> {
  const rows = await db.kysely
    .selectFrom('lead_outbox')
    .select(['channel', 'status', 'created_at', 'delivered_at', 'payload', 'payload_removed_at'])
    .where('event', '=', 'lead.created')
    .where('submission_kind', '=', kind as 'contact' | 'applications')
    .where('submission_id', '=', submissionId)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    channel: row.channel,
    status: row.status,
    createdAt: db.dialect.readTimestamp(row.created_at),
    deliveredAt: row.delivered_at === null || row.delivered_at === undefined ? null : db.dialect.readTimestamp(row.delivered_at),
    payload: row.payload_removed_at === null ? (JSON.parse(row.payload) as unknown) : null,
    payloadRemovedAt: row.payload_removed_at,
  }));
}

/** Everything the site holds about the person, and when it erased them before (by the audit log's hash). */
export async function subjectReport(db: Db, subject: DataSubject, now = new Date()): Promise<DataSubjectReport> {
  const leads: SubjectLead[] = [];
  for (const ref of await findSubjectLeads(db, subject)) {
    const detail = await findLeadDetail(db, ref.id);
    if (detail) leads.push({ ...detail, notifications: await notificationCopies(db, ref.kind, ref.submission_id) });
  }
  const past = await db.kysely
    .selectFrom('staff_audit')
    .select(['at', 'actor', 'detail'])
    .where('action', '=', 'data-erased')
    .where('target', '=', erasureTarget(await subjectHash(db, subject)))
    .orderBy('seq')
    .execute();
  return {
    format: 'agency-data-subject/1',
    generatedAt: now.toISOString(),
    subject: subjectText(subject),
    matchedBy: subject.matchedBy,
    leads,
    erasures: past.map((entry) => ({ at: entry.at, actor: entry.actor, leads: Number((JSON.parse(entry.detail) as { leads?: number }).leads ?? 0) })),
  };
}

/** The report as a file handed out: recorded in the audit log (under the person's hash) before it is. */
export async function exportSubject(db: Db, subject: DataSubject, actor: AuditActor, now = new Date()): Promise<DataSubjectReport> {
  const report = await subjectReport(db, subject, now);
  const target = erasureTarget(await subjectHash(db, subject));
  await recordAudit(db.kysely, { actorId: actor.id, actor: actor.actor, action: 'data-exported', target, address: actor.address, detail: { leads: report.leads.length } }, now);
  return report;
}
