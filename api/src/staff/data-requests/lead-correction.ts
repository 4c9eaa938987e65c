import type { Correction, LeadDetail } from '@agency/shared';
import { ContactMessageSchema } from '@agency/shared/contracts';
import type { TString } from '@sinclair/typebox';
import type { Db } from '../../platform/db/connection';
import { ApiError, MESSAGES, validationError, type ValidationIssue } from '../../platform/http/api-error';
import { normalizeTextInput, reindexLead, SUBMISSION_TABLES, type SubmittedLead } from '../../site/leads';
import { recordAudit } from '../../platform/audit/audit-log';
import { STAFF_MESSAGES } from '../common/staff-messages';
import { findLeadDetail } from '../inbox/lead-detail';
import { findLeadRow, findLeadSummary } from '../inbox/inbox-repository';
import { LeadChangedError, type Actor } from '../inbox/lead-work';

/**
 * A person's correction of what they sent (name, e-mail or phone): checked by the rules the form's
 * field has, written to the submission and its searchable text, with the old and new value in
 * the lead's history and the field's name (never its values) in the audit log. Made from the
 * lead's version, like any change of it.
 */

/** The value as the form's field would have accepted it, or the form's message for it. */
function checkedValue(field: Correction['field'], value: string): string {
  const input = normalizeTextInput(value);
  if (!input.ok) throw new ApiError(400, 'VALIDATION_ERROR', MESSAGES.validation, { value: MESSAGES.nulCharacter });
  // Name, e-mail and phone follow the same rules in both forms.
  const schema = ContactMessageSchema.properties[field] as TString;
  const issue = (keyword: string, params: Record<string, unknown> = {}): ValidationIssue => ({ keyword, instancePath: `/${field}`, params });
  const issues: ValidationIssue[] = [];
  if (input.text.length < (schema.minLength ?? 0) || input.text === '') issues.push(issue('minLength'));
  else if (schema.maxLength !== undefined && input.text.length > schema.maxLength) issues.push(issue('maxLength', { limit: schema.maxLength }));
  else if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(input.text)) issues.push(issue('pattern'));
  if (issues.length > 0) {
    const error = validationError(issues, 'body');
    throw new ApiError(400, error.code, error.message, { value: error.fields![field]! });
  }
  return input.text;
}

export async function correctLead(db: Db, id: number, correction: Correction, actor: Actor): Promise<LeadDetail> {
  const row = await findLeadRow(db, id);
  if (!row) throw new ApiError(404, 'LEAD_NOT_FOUND', STAFF_MESSAGES.leadNotFound);
  const value = checkedValue(correction.field, correction.value);
  const kind = row.kind;
  const table = SUBMISSION_TABLES[kind];
  const submissionId = Number(row.submission_id);

  const changed = await db.kysely.transaction().execute(async (kysely) => {
    const trx: Db = { kysely, dialect: db.dialect };
    const at = new Date().toISOString();
    const result = await kysely
      .updateTable('leads')
      .set((eb) => ({ version: eb('version', '+', 1), updated_at: at, last_activity_at: at }))
      .where('id', '=', id)
      .where('version', '=', correction.version)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    const before = (await kysely.selectFrom(table).selectAll().where('id', '=', submissionId).executeTakeFirstOrThrow()) as Record<string, unknown>;
    await kysely
      .updateTable(table)
      .set({ [correction.field]: value })
      .where('id', '=', submissionId)
      .execute();
    const submission = { ...before, [correction.field]: value } as SubmittedLead['submission'];
    await reindexLead(trx, id, { kind, submission } as SubmittedLead);
    await kysely
      .insertInto('lead_history')
      .values({ lead_id: id, actor_id: actor.member.id, at, change: `field:${correction.field}`, old_value: String(before[correction.field] ?? ''), new_value: value })
      .execute();
    await recordAudit(kysely, { actorId: actor.member.id, actor: actor.member.email, action: 'lead-corrected', target: `lead:${id}`, address: actor.address, detail: { field: correction.field } });
    return true;
  });
  if (!changed) throw new LeadChangedError((await findLeadSummary(db, id))!);
  return (await findLeadDetail(db, id))!;
}
