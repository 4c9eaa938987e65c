import fs from 'node:fs';
import { loadConfig } from '../../platform/config';
import { createDatabase, type Db } from '../../platform/db/connection';
import { conversionReport } from '../leads/submissions/conversion-report';
import { listContactMessages, listJobApplications } from '../leads/submissions/submissions-repository';
import { idempotencyKey } from '../leads/lead/lead-payload';
import { listUndelivered, requeueLead } from '../leads/outbox/outbox-repository';
import { toCsv, toJson, type ListKind } from './submissions-format';
import { ARG_MESSAGES, parseCliArgs, UsageError } from '../../platform/cli/parse-cli-args';
import { CommandFailure, runAsCommand } from '../../platform/cli/run-command';

/**
 * Staff access to stored submissions and their notifications:
 *   npm run submissions -- <contact|applications> [--format json|csv] [--since YYYY-MM-DD] [--delimiter ";"]
 *   npm run submissions -- outbox [--format json|csv] [--retry <id>]
 *   npm run submissions -- report [--format json|csv] [--since YYYY-MM-DD] [--delimiter ";"]
 * Reads the database named by DATABASE_URL and prints to stdout. Exit codes: 0 done (or --help),
 * 1 failed, 2 bad usage.
 */

const USAGE = [
  'Використання: npm run submissions -- <contact|applications> [--format json|csv] [--since РРРР-ММ-ДД] [--delimiter ","]',
  '              npm run submissions -- outbox [--format json|csv] [--retry <id>]',
  '              npm run submissions -- report [--format json|csv] [--since РРРР-ММ-ДД] [--delimiter ","]',
  '                 сесії, звернення, заявки й конверсія за джерелом, каналом і кампанією (типово за 30 днів)',
  '              npm run submissions -- --help     ця довідка',
].join('\n');

export interface CliOptions {
  kind: ListKind;
  format: 'json' | 'csv';
  since?: Date;
  delimiter: string;
  /** outbox only: the delivery to queue again. */
  retry?: number;
}


const OPTIONS = {
  format: { type: 'string' },
  since: { type: 'string' },
  delimiter: { type: 'string' },
  retry: { type: 'string' },
} as const;

function parseFormat(value = 'json'): CliOptions['format'] {
  if (value !== 'json' && value !== 'csv') throw new UsageError(`Невідомий формат «${value}»: оберіть json або csv`);
  return value;
}

function parseSince(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(`${value}T00:00:00.000Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    throw new UsageError(`Некоректна дата «${value}»: очікується РРРР-ММ-ДД`);
  }
  return date;
}

function parseDelimiter(value = ','): string {
  if (value.length !== 1 || /["\r\n]/.test(value)) throw new UsageError('Роздільник має бути одним символом');
  return value;
}

function parseRetry(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d{0,9}$/.test(value)) throw new UsageError(`Некоректний номер доставки «${value}»`);
  return Number(value);
}

export function parseSubmissionsArgs(argv: readonly string[]): CliOptions {
  const { values, positionals } = parseCliArgs(argv, OPTIONS, ARG_MESSAGES.uk, 1);
  const [kind] = positionals;
  if (kind !== 'contact' && kind !== 'applications' && kind !== 'outbox' && kind !== 'report') {
    throw new UsageError(
      kind === undefined
        ? 'Вкажіть, що вивести: contact, applications, outbox або report'
        : `Невідомий тип «${kind}»: contact, applications, outbox або report`,
    );
  }
  const options: CliOptions = {
    kind,
    format: parseFormat(values.format),
    since: parseSince(values.since),
    delimiter: parseDelimiter(values.delimiter),
    retry: parseRetry(values.retry),
  };
  if (options.retry !== undefined && kind !== 'outbox') throw new UsageError('--retry працює лише з outbox');
  if (options.since !== undefined && kind === 'outbox') throw new UsageError('--since працює лише з contact, applications і report');
  return options;
}

export async function run(argv: readonly string[], env: Record<string, string | undefined> = process.env): Promise<string> {
  const options = parseSubmissionsArgs(argv);
  const url = loadConfig(env).databaseUrl;
  if (url.startsWith('sqlite:') && !fs.existsSync(url.slice('sqlite:'.length))) {
    throw new UsageError(`Базу даних не знайдено: ${url.slice('sqlite:'.length)}`);
  }
  const db = createDatabase(url, { poolSize: 1 });
  try {
    if (options.kind === 'report') {
      const report = await conversionReport(db, options.since ?? reportStart(new Date()));
      return options.format === 'csv' ? toCsv('report', report.rows, options.delimiter) : `${JSON.stringify(report, null, 2)}\n`;
    }
    if (options.kind === 'outbox') {
      if (options.retry !== undefined) return await retryDelivery(db, options.retry);
      const rows = await listUndelivered(db);
      return options.format === 'csv' ? toCsv('outbox', rows, options.delimiter) : toJson('outbox', rows);
    }
    const rows =
      options.kind === 'contact'
        ? await listContactMessages(db, options.since)
        : await listJobApplications(db, options.since);
    return options.format === 'csv' ? toCsv(options.kind, rows, options.delimiter) : toJson(options.kind, rows);
  } finally {
    await db.destroy();
  }
}

/** Days the report covers when no --since is given: the last 30, today included. */
const REPORT_DAYS = 30;

/** The UTC midnight REPORT_DAYS - 1 days before `now`'s day. */
export function reportStart(now: Date): Date {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  start.setUTCDate(start.getUTCDate() - (REPORT_DAYS - 1));
  return start;
}

/** Queues one delivery again; a running API sends it within about a second. */
async function retryDelivery(db: Db, id: number): Promise<string> {
  const entry = await requeueLead(db, id, new Date());
  if (!entry) throw new CommandFailure(`Доставки №${id} немає`);
  const what = `Доставка №${id} (${entry.channel}, ${idempotencyKey(entry.submission_kind, entry.submission_id)})`;
  if (entry.status === 'delivered') throw new CommandFailure(`${what} уже виконана: повторно не надсилається`);
  return `${what} знову в черзі; запущений API надішле її протягом кількох секунд.\n`;
}

if (require.main === module) runAsCommand(run, USAGE, 'Не вдалося прочитати заявки');
