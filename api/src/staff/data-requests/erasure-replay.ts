import type { Db } from '../../platform/db/connection';
import type { ErasureEntry } from '../../platform/backup/erasure-journal';
import { PHONE_KEY_DIGITS, phoneKey, SUBMISSION_TABLES } from '../../site/leads';
import type { AuditActor } from '../../platform/audit/audit-log';
import { hasSubjectHashKey, subjectHasher, type DataSubject } from './data-subject';
import { eraseSubject } from './subject-erasure';

/** How the audit log names erasures a restore makes again. */
const RESTORE_ACTOR: AuditActor = { id: null, actor: 'restore', address: 'restore' };

/**
 * Erases again, in a database just restored from a backup, the people the journal says were
 * erased after it: every e-mail and phone of its leads is hashed as the journal's entries were
 * (with the restored database's own secret) and each person found is erased as before. The CRM
 * was told at the time, so no webhook message is sent again. Returns how many people were found.
 */
export async function replayErasures(db: Db, entries: readonly ErasureEntry[], now = new Date()): Promise<number> {
  if (entries.length === 0) return 0;
  if (!(await hasSubjectHashKey(db))) {
    throw new Error(`the backup was taken before the site had its key for people's hashes, so the ${entries.length} erasures since cannot be matched: erase those people again by hand (npm run staff -- subject <e-mail> --erase)`);
  }
  const wanted = new Set(entries.map((entry) => entry.hash));
  const subjects = new Map<string, DataSubject>();
  for (const table of Object.values(SUBMISSION_TABLES)) {
    const rows = await db.kysely.selectFrom(table).select(['email', 'phone']).execute();
    for (const row of rows) {
      const email = row.email.trim().toLowerCase();
      if (email) subjects.set(`email:${email}`, { matchedBy: 'email', email });
      const digits = phoneKey(row.phone);
      if (digits.length === PHONE_KEY_DIGITS) subjects.set(`phone:${digits}`, { matchedBy: 'phone', digits });
    }
  }
  const hash = await subjectHasher(db);
  let found = 0;
  for (const subject of subjects.values()) {
    if (!wanted.has(hash(subject))) continue;
    await eraseSubject(db, subject, RESTORE_ACTOR, { webhook: false, now });
    found += 1;
  }
  return found;
}
