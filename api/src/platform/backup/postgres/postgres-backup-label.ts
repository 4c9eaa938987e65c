/**
 * The label a base backup of ours gives pg_backup_start. PostgreSQL writes it into the backup's
 * backup_label (`LABEL: …`), which travels inside the backup: a restore drill reads from it which
 * database the manifest's row counts are of and which role to count them as, with no other record.
 */

export interface BackupLabel {
  backupId: string;
  database: string;
  user: string;
}

/** The label (at most 1023 bytes, PostgreSQL's limit); names are URI-encoded so spaces cannot split them. */
export function backupLabel({ backupId, database, user }: BackupLabel): string {
  const label = `agency backup ${backupId} of database ${encodeURIComponent(database)} as ${encodeURIComponent(user)}`;
  if (Buffer.byteLength(label) > 1023) throw new Error('the database or role name is too long for a backup label');
  return label;
}

/** What the label in the text of a backup_label file says, or undefined when it is not ours. */
export function parseBackupLabel(backupLabelFile: string): BackupLabel | undefined {
  const match = /^LABEL: agency backup (\S+) of database (\S+) as (\S+)$/m.exec(backupLabelFile);
  if (!match) return undefined;
  return { backupId: match[1] as string, database: decodeURIComponent(match[2] as string), user: decodeURIComponent(match[3] as string) };
}
