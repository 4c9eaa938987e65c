import { writeFileSync } from 'node:fs';
import { APP_NAMES, LEAD_KIND_LABELS, LEAD_STATUS_LABELS, releaseAppsProblem, STAFF_ROLES, type AuditEntry, type StaffRole } from '@agency/shared';
import { BackupService } from '../../platform/backup/backup-service';
import { loadConfig } from '../../platform/config';
import { createDatabase, type Database } from '../../platform/db/connection';
import { WalBusyError } from '../../platform/db/deleted-rows';
import { migrateToLatest } from '../../platform/db/migrate';
import { parseDuration } from '../../platform/lib/duration';
import { findMemberByEmail, normalizeEmail } from '../accounts/members-repository';
import { createInvitation } from '../accounts/invitations';
import { purgeExpired } from '../../site/leads';
import { readAudit, type AuditActor } from '../../platform/audit/audit-log';
import { parseDataSubject, type DataSubject } from '../data-requests/data-subject';
import { ErasureNotJournaledError, journalOf } from '../data-requests/erasure-journal-writer';
import { eraseSubject, type ErasureOptions } from '../data-requests/subject-erasure';
import { exportSubject, subjectReport } from '../data-requests/subject-report';
import { ARG_MESSAGES, parseCliArgs, UsageError } from '../../platform/cli/parse-cli-args';
import { CommandFailure, runAsCommand } from '../../platform/cli/run-command';

/**
 * The staff console from the server's shell:
 *   npm run staff -- invite <email> --role <admin|editor|viewer>   prints a one-time invitation link
 *   npm run staff -- invite <email> --role release_manager --apps blog,forms   one for a release manager of those apps
 *   npm run staff -- audit [--since 7d] [--format json]            the audit log, oldest first
 *   npm run staff -- purge [--dry-run]                             the retention purge now (or what it would remove)
 *   npm run staff -- subject <email|phone> [--export FILE | --erase]   a person's data: shown, saved as JSON, or erased
 * On the database named by DATABASE_URL (migrated first, so the first admin can be invited before
 * the site ever started). Exit codes: 0 done (or --help), 1 failed, 2 bad usage.
 */

const USAGE = [
  'Використання: npm run staff -- invite <e-mail> --role <admin|editor|viewer>',
  '                 одноразове посилання-запрошення до консолі (діє 72 години)',
  '              npm run staff -- invite <e-mail> --role release_manager --apps <застосунок,…>',
  `                 запрошення менеджера релізів цих застосунків (${APP_NAMES.join(', ')})`,
  '              npm run staff -- audit [--since 7d] [--format text|json]',
  '                 журнал дій команди за період (типово за 7 днів)',
  '              npm run staff -- purge [--dry-run]',
  '                 видалити дані, строк зберігання яких минув (з --dry-run лише показати, що буде видалено)',
  '              npm run staff -- subject <e-mail|телефон> [--export ФАЙЛ | --erase]',
  '                 усе, що сайт зберігає про людину; --export зберігає це у JSON, --erase видаляє',
  '              npm run staff -- --help     ця довідка',
].join('\n');

const OPTIONS = {
  role: { type: 'string' },
  apps: { type: 'string' },
  since: { type: 'string' },
  format: { type: 'string' },
  'dry-run': { type: 'boolean' },
  export: { type: 'string' },
  erase: { type: 'boolean' },
} as const;

export type StaffCommand =
  | { command: 'invite'; email: string; role: StaffRole; releaseApps: string[] }
  | { command: 'audit'; sinceMs: number; format: 'text' | 'json' }
  | { command: 'purge'; dryRun: boolean }
  | { command: 'subject'; subject: DataSubject; exportFile?: string; erase: boolean };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const COMMANDS = 'invite, audit, purge або subject';
const ROLES = 'admin, editor, viewer або release_manager';
/** Which options each command takes. */
const COMMAND_OPTIONS: Record<StaffCommand['command'], readonly (keyof typeof OPTIONS)[]> = {
  invite: ['role', 'apps'],
  audit: ['since', 'format'],
  purge: ['dry-run'],
  subject: ['export', 'erase'],
};

/** The backup store's messages are not the command's output. */
const silentLog = { info: () => undefined, warn: () => undefined } as unknown as Parameters<typeof BackupService.open>[0]['log'];

/** How the audit log names what is done from the server's shell. */
const CLI_ACTOR: AuditActor = { id: null, actor: 'cli', address: 'cli' };

export function parseStaffArgs(argv: readonly string[]): StaffCommand {
  const { values, positionals } = parseCliArgs(argv, OPTIONS, ARG_MESSAGES.uk, 2);
  const [command, argument] = positionals;
  if (command === undefined) throw new UsageError(`Вкажіть команду: ${COMMANDS}`);
  if (!(command in COMMAND_OPTIONS)) throw new UsageError(`Невідома команда «${command}»: ${COMMANDS}`);
  const allowed: readonly string[] = COMMAND_OPTIONS[command as StaffCommand['command']];
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && !allowed.includes(name)) throw new UsageError(`--${name} не працює з ${command}`);
  }
  if (command === 'invite') {
    if (argument === undefined || !EMAIL.test(argument)) throw new UsageError('Вкажіть e-mail того, кого запрошуєте');
    const role = values.role;
    if (role === undefined) throw new UsageError(`Вкажіть роль: --role ${ROLES}`);
    if (!(STAFF_ROLES as readonly string[]).includes(role)) throw new UsageError(`Невідома роль «${role}»: ${ROLES}`);
    if (role === 'release_manager' && values.apps === undefined) throw new UsageError(`Вкажіть застосунки менеджера релізів: --apps, наприклад --apps blog,forms (можна ${APP_NAMES.join(', ')})`);
    const releaseApps = (values.apps ?? '').split(',').map((app) => app.trim()).filter((app) => app !== '');
    const problem = releaseAppsProblem(role as StaffRole, releaseApps);
    if (problem !== undefined) throw new UsageError(problem);
    return { command, email: argument, role: role as StaffRole, releaseApps: APP_NAMES.filter((app) => releaseApps.includes(app)) };
  }
  if (command === 'subject') {
    const subject = argument === undefined ? undefined : parseDataSubject(argument);
    if (!subject) throw new UsageError('Вкажіть e-mail або номер телефону (щонайменше 9 цифр) людини');
    if (values.export !== undefined && values.erase) throw new UsageError('--export і --erase — окремо: спершу збережіть дані, потім видаляйте');
    return { command, subject, exportFile: values.export, erase: values.erase === true };
  }
  if (argument !== undefined) throw new UsageError(ARG_MESSAGES.uk.unexpected([argument]));
  if (command === 'purge') return { command, dryRun: values['dry-run'] === true };
  const sinceMs = parseDuration(values.since ?? '7d', { wholeUnits: true });
  if (sinceMs === undefined || sinceMs <= 0) throw new UsageError(`Некоректний період «${values.since}»: наприклад 7d, 12h або 30m`);
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError(`Невідомий формат «${format}»: text або json`);
  return { command: 'audit', sinceMs, format };
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
      const invitation = await createInvitation(db, config.siteUrl, command, CLI_ACTOR, now);
      const apps = command.role === 'release_manager' ? `: ${command.releaseApps.join(', ')}` : '';
      return `Запрошення для ${normalizeEmail(command.email)} (${command.role}${apps}), діє до ${invitation.expiresAt}:\n${invitation.link}\n`;
    }
    if (command.command === 'purge') return await purge(db, command.dryRun, now);
    if (command.command === 'subject') return await subject(db, command, { webhook: Boolean(config.leads.webhook), journal: journalOf(BackupService.open({ config: config.backup, databaseUrl: config.databaseUrl, log: silentLog })), now });
    return await audit(db, command.sinceMs, command.format, now);
  } finally {
    await db.destroy();
  }
}

async function audit(db: Database, sinceMs: number, format: 'text' | 'json', now: Date): Promise<string> {
  const since = new Date(now.getTime() - sinceMs).toISOString();
  const entries: AuditEntry[] = [];
  for (let before: number | undefined; ; ) {
    const page = await readAudit(db, { since, before, limit: 1000 });
    entries.push(...page.entries);
    if (page.next === null) break;
    before = page.next;
  }
  entries.reverse();
  if (format === 'json') return `${JSON.stringify(entries, null, 2)}\n`;
  return entries.length === 0 ? 'За цей період записів немає\n' : `${entries.map(auditLine).join('\n')}\n`;
}

async function purge(db: Database, dryRun: boolean, now: Date): Promise<string> {
  const report = await purgeExpired(db, { now, dryRun });
  const counts = `спам — ${report.leads.spam}, звернення — ${report.leads.contact}, заявки на вакансії — ${report.leads.applications}; копії у сповіщеннях, з яких прибрати персональні дані, — ${report.notificationCopies}`;
  return dryRun ? `Наступний запуск видалить: ${counts}\n` : `Видалено (строк зберігання минув): ${counts}\n`;
}

async function subject(db: Database, command: Extract<StaffCommand, { command: 'subject' }>, options: Required<Pick<ErasureOptions, 'webhook' | 'now'>> & Pick<ErasureOptions, 'journal'>): Promise<string> {
  const { webhook, now } = options;
  if (command.erase) {
    const result = await eraseSubject(db, command.subject, CLI_ACTOR, options).catch((error: unknown) => {
      if (error instanceof ErasureNotJournaledError) {
        throw new CommandFailure(`Нічого не видалено: сховище резервних копій (BACKUP_STORE) не прийняло запис про видалення, а без нього відновлення з копії повернуло б ці дані. ${(error as Error).message}`);
      }
      if (error instanceof WalBusyError) {
        throw new CommandFailure('Дані видалено, але базу зараз читає інший процес, і їхні копії в журналі бази (файл -wal) ще не стерто. Запустіть ту саму команду ще раз за хвилину');
      }
      throw error;
    });
    const rows = Object.values(result.rows).reduce((sum, count) => sum + count, 0);
    return `Видалено: звернень і заявок — ${result.leads}, записів у базі — ${rows}${webhook && result.leads > 0 ? '; CRM отримає повідомлення lead.erased' : ''}\n`;
  }
  if (command.exportFile !== undefined) {
    const exported = await exportSubject(db, command.subject, CLI_ACTOR, now);
    // Owner-only: the file holds a person's data.
    writeFileSync(command.exportFile, `${JSON.stringify(exported, null, 2)}\n`, { mode: 0o600 });
    return `Збережено у ${command.exportFile}: звернень і заявок — ${exported.leads.length}\n`;
  }
  const report = await subjectReport(db, command.subject, now);
  const lines = report.leads.map((lead) => {
    const field = (name: string) => lead.fields.find((each) => each.name === name)?.value ?? '';
    return `№${lead.id}  ${LEAD_KIND_LABELS[lead.kind]}  ${lead.receivedAt}  ${LEAD_STATUS_LABELS[lead.status]}  ${field('name')}  ${field('email')}  ${field('phone')}  нотаток: ${lead.notes.length}`;
  });
  const erasures = report.erasures.map((erasure) => `Раніше видалено ${erasure.at} (${erasure.actor}): звернень і заявок — ${erasure.leads}`);
  if (lines.length === 0) lines.push(`Про ${report.subject} сайт нічого не зберігає`);
  return `${[...lines, ...erasures].join('\n')}\n`;
}


if (require.main === module) runAsCommand(run, USAGE, 'Не вдалося');
