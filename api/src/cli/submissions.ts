import fs from 'node:fs';
import { loadConfig } from '../config';
import { createDatabase } from '../db/connection';
import { listContactMessages, listJobApplications, type Db } from '../db/repository';
import { idempotencyKey } from '../leads/lead-payload';
import { listUndelivered, requeueLead } from '../leads/outbox-store';
import { toCsv, toJson, type ListKind } from './format';

/**
 * Staff access to stored submissions and their notifications:
 *   npm run submissions -- <contact|applications> [--format json|csv] [--since YYYY-MM-DD] [--delimiter ";"]
 *   npm run submissions -- outbox [--format json|csv] [--retry <id>]
 * Reads the database named by DATABASE_URL and prints to stdout.
 */

const USAGE = [
  'Використання: npm run submissions -- <contact|applications> [--format json|csv] [--since РРРР-ММ-ДД] [--delimiter ","]',
  '              npm run submissions -- outbox [--format json|csv] [--retry <id>]',
].join('\n');

export interface CliOptions {
  kind: ListKind;
  format: 'json' | 'csv';
  since?: Date;
  delimiter: string;
  /** outbox only: the delivery to queue again. */
  retry?: number;
}

export class UsageError extends Error {}

/** The command was understood but cannot be done; said without the usage text. */
export class CommandFailure extends Error {}

export function parseArgs(argv: readonly string[]): CliOptions {
  const positional: string[] = [];
  let format: CliOptions['format'] = 'json';
  let since: Date | undefined;
  let delimiter = ',';
  let retry: number | undefined;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? '';
    const [flag, inline] = arg.startsWith('--') ? (arg.split(/=(.*)/s, 2) as [string, string | undefined]) : [arg, undefined];
    const value = () => {
      const next = inline ?? argv[(index += 1)];
      if (next === undefined) throw new UsageError(`Для ${flag} потрібне значення`);
      return next;
    };
    switch (flag) {
      case '--format': {
        const chosen = value();
        if (chosen !== 'json' && chosen !== 'csv') throw new UsageError(`Невідомий формат «${chosen}»: оберіть json або csv`);
        format = chosen;
        break;
      }
      case '--since': {
        const chosen = value();
        const date = new Date(`${chosen}T00:00:00.000Z`);
        if (!/^\d{4}-\d{2}-\d{2}$/.test(chosen) || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== chosen) {
          throw new UsageError(`Некоректна дата «${chosen}»: очікується РРРР-ММ-ДД`);
        }
        since = date;
        break;
      }
      case '--delimiter': {
        const chosen = value();
        if (chosen.length !== 1 || /["\r\n]/.test(chosen)) throw new UsageError('Роздільник має бути одним символом');
        delimiter = chosen;
        break;
      }
      case '--retry': {
        const chosen = value();
        if (!/^[1-9]\d{0,9}$/.test(chosen)) throw new UsageError(`Некоректний номер доставки «${chosen}»`);
        retry = Number(chosen);
        break;
      }
      case '--help':
      case '-h':
        throw new UsageError(USAGE);
      default:
        if (flag.startsWith('-')) throw new UsageError(`Невідомий параметр ${flag}`);
        positional.push(arg);
    }
  }
  const [kind, ...rest] = positional;
  if (kind !== 'contact' && kind !== 'applications' && kind !== 'outbox') {
    throw new UsageError(
      kind === undefined
        ? 'Вкажіть, що вивести: contact, applications або outbox'
        : `Невідомий тип «${kind}»: contact, applications або outbox`,
    );
  }
  if (rest.length > 0) throw new UsageError(`Зайві аргументи: ${rest.join(' ')}`);
  if (retry !== undefined && kind !== 'outbox') throw new UsageError('--retry працює лише з outbox');
  if (since !== undefined && kind === 'outbox') throw new UsageError('--since працює лише з contact і applications');
  return { kind, format, since, delimiter, retry };
}

export async function run(argv: readonly string[], env: Record<string, string | undefined> = process.env): Promise<string> {
  const options = parseArgs(argv);
  const url = loadConfig(env).databaseUrl;
  if (url.startsWith('sqlite:') && !fs.existsSync(url.slice('sqlite:'.length))) {
    throw new UsageError(`Базу даних не знайдено: ${url.slice('sqlite:'.length)}`);
  }
  const db = createDatabase(url, { poolSize: 1 });
  try {
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

/** Queues one delivery again; a running API sends it within about a second. */
async function retryDelivery(db: Db, id: number): Promise<string> {
  const entry = await requeueLead(db, id, new Date());
  if (!entry) throw new CommandFailure(`Доставки №${id} немає`);
  const what = `Доставка №${id} (${entry.channel}, ${idempotencyKey(entry.submission_kind, entry.submission_id)})`;
  if (entry.status === 'delivered') throw new CommandFailure(`${what} уже виконана: повторно не надсилається`);
  return `${what} знову в черзі; запущений API надішле її протягом кількох секунд.\n`;
}

if (require.main === module) {
  run(process.argv.slice(2)).then(
    (output) => {
      process.stdout.write(output);
    },
    (error: unknown) => {
      if (error instanceof UsageError) {
        process.stderr.write(`${error.message}\n${error.message === USAGE ? '' : `${USAGE}\n`}`);
        process.exitCode = 2;
      } else if (error instanceof CommandFailure) {
        process.stderr.write(`${error.message}\n`);
        process.exitCode = 1;
      } else {
        process.stderr.write(`Не вдалося прочитати заявки: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exitCode = 1;
      }
    },
  );
}
