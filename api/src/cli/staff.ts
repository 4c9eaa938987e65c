import { STAFF_ROLES, type AuditEntry, type StaffRole } from '@agency/shared';
import { loadConfig } from '../config';
import { createDatabase } from '../db/connection';
import { migrateToLatest } from '../db/migrate';
import { parseDuration } from '../lib/duration';
import { findMemberByEmail, normalizeEmail } from '../staff/accounts/members-repository';
import { createInvitation } from '../staff/accounts/invitations';
import { readAudit } from '../staff/audit/audit-log';
import { ARG_MESSAGES, parseCliArgs, reportUsage, UsageError } from './parse-cli-args';
import { inertOutput } from './terminal-text';

/**
 * The staff console from the server's shell:
 *   npm run staff -- invite <email> --role <admin|editor|viewer>   prints a one-time invitation link
 *   npm run staff -- audit [--since 7d] [--format json]            the audit log, oldest first
 * On the database named by DATABASE_URL (migrated first, so the first admin can be invited before
 * the site ever started). Exit codes: 0 done (or --help), 1 failed, 2 bad usage.
 */

const USAGE = [
  'Використання: npm run staff -- invite <e-mail> --role <admin|editor|viewer>',
  '                 одноразове посилання-запрошення до консолі (діє 72 години)',
  '              npm run staff -- audit [--since 7d] [--format text|json]',
  '                 журнал дій команди за період (типово за 7 днів)',
  '              npm run staff -- --help     ця довідка',
].join('\n');

const OPTIONS = { role: { type: 'string' }, since: { type: 'string' }, format: { type: 'string' } } as const;

export type StaffCommand = { command: 'invite'; email: string; role: StaffRole } | { command: 'audit'; sinceMs: number; format: 'text' | 'json' };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function parseStaffArgs(argv: readonly string[]): StaffCommand {
  const { values, positionals } = parseCliArgs(argv, OPTIONS, ARG_MESSAGES.uk, 2);
  const [command, argument] = positionals;
  if (command === 'invite') {
    if (argument === undefined || !EMAIL.test(argument)) throw new UsageError('Вкажіть e-mail того, кого запрошуєте');
    const role = values.role;
    if (role === undefined) throw new UsageError('Вкажіть роль: --role admin, editor або viewer');
    if (!(STAFF_ROLES as readonly string[]).includes(role)) throw new UsageError(`Невідома роль «${role}»: admin, editor або viewer`);
    if (values.since !== undefined || values.format !== undefined) throw new UsageError('--since і --format працюють лише з audit');
    return { command, email: argument, role: role as StaffRole };
  }
  if (command === 'audit') {
    if (argument !== undefined) throw new UsageError(ARG_MESSAGES.uk.unexpected([argument]));
    if (values.role !== undefined) throw new UsageError('--role працює лише з invite');
    const sinceMs = parseDuration(values.since ?? '7d', { wholeUnits: true });
    if (sinceMs === undefined || sinceMs <= 0) throw new UsageError(`Некоректний період «${values.since}»: наприклад 7d, 12h або 30m`);
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'json') throw new UsageError(`Невідомий формат «${format}»: text або json`);
    return { command, sinceMs, format };
  }
  throw new UsageError(command === undefined ? 'Вкажіть команду: invite або audit' : `Невідома команда «${command}»: invite або audit`);
}

function auditLine(entry: AuditEntry): string {
  const detail = Object.keys(entry.detail).length > 0 ? ` ${JSON.stringify(entry.detail)}` : '';
  return `${entry.at}  ${entry.actor}  ${entry.action}  ${entry.target}  ${entry.address}${detail}`;
}

export async function run(argv: readonly string[], env: Record<string, string | undefined> = process.env, now = new Date()): Promise<string> {
  const command = parseStaffArgs(argv);
  const config = loadConfig(env);
  const db = createDatabase(config.databaseUrl, { poolSize: 1 });
  try {
    await migrateToLatest(db);
    if (command.command === 'invite') {
      if (await findMemberByEmail(db, command.email)) throw new CommandFailure(`${command.email} уже в команді`);
      const invitation = await createInvitation(db, config.siteUrl, command.email, command.role, { id: null, actor: 'cli', address: 'cli' }, now);
      return `Запрошення для ${normalizeEmail(command.email)} (${command.role}), діє до ${invitation.expiresAt}:\n${invitation.link}\n`;
    }
    const since = new Date(now.getTime() - command.sinceMs).toISOString();
    const entries: AuditEntry[] = [];
    for (let before: number | undefined; ; ) {
      const page = await readAudit(db, { since, before, limit: 1000 });
      entries.push(...page.entries);
      if (page.next === null) break;
      before = page.next;
    }
    entries.reverse();
    if (command.format === 'json') return `${JSON.stringify(entries, null, 2)}\n`;
    return entries.length === 0 ? 'За цей період записів немає\n' : `${entries.map(auditLine).join('\n')}\n`;
  } finally {
    await db.destroy();
  }
}

/** The command was understood but cannot be done; said without the usage text. */
export class CommandFailure extends Error {}

if (require.main === module) {
  run(process.argv.slice(2)).then(
    (output) => process.stdout.write(inertOutput(output)),
    (error: unknown) => {
      const usageCode = reportUsage(error, USAGE);
      if (usageCode !== undefined) process.exitCode = usageCode;
      else {
        process.stderr.write(inertOutput(`${error instanceof CommandFailure ? error.message : `Не вдалося: ${error instanceof Error ? error.message : String(error)}`}\n`));
        process.exitCode = 1;
      }
    },
  );
}
