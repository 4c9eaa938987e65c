import { setTimeout as delay } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Database } from '../../db/connection';
import type { BackupManifest } from '../backup-manifest';
import { backupsToDelete } from '../backup-retention';
import type { BackupService } from '../backup-service';
import { takePostgresBaseBackup } from './postgres-base-backup';
import { verifyPostgresBackup } from './postgres-verify';
import { shipWal, WAL_SHIP_INTERVAL_MS } from './postgres-wal-archive';
import { walNameOfKey, walTimeline } from './postgres-wal-names';
import { walToDelete } from './postgres-wal-retention';

/** What the agent says: one JSON object per event (its container's log). */
export interface AgentLog {
  info(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface BackupAgentOptions {
  service: BackupService;
  db: Database;
  dataDir: string;
  spoolDir: string;
  intervalMs: number;
  verifyIntervalMs: number;
  log: AgentLog;
  now?: () => number;
  /** Time between two rounds (WAL shipping's interval). */
  roundMs?: number;
}

/** How long a failed base backup or drill waits before the agent tries it again. */
export const RETRY_AFTER_MS = 5 * 60_000;

/** When the agent last started a base backup or a drill that has not succeeded since. */
export interface AgentAttempts {
  backup?: number;
  verify?: number;
  /** When the backups were last looked at: WAL ships every round, the store is listed once a minute. */
  checked?: number;
}

/** How often the agent lists the store to decide on base backups, drills and retention. */
export const CHECK_EVERY_MS = 60_000;

export interface AgentRoundResult {
  shipped: number;
  backup?: BackupManifest;
  verified?: string;
  deleted: number;
}

/**
 * Closes the WAL segment in use when it holds changes and nothing was archived for longer than
 * archive_timeout: PostgreSQL 15 applies archive_timeout only from its first checkpoint after a
 * start (up to checkpoint_timeout, 5 min, later), and the RPO must hold from the first minute.
 */
async function closeStaleSegment(db: Database): Promise<void> {
  const { rows } = await sql<{ stale: boolean }>`
    select a.last_archived_time is null or now() - a.last_archived_time > current_setting('archive_timeout')::interval as stale
    from pg_stat_archiver a`.execute(db.kysely);
  // With no change since the last switch, pg_switch_wal does nothing: an idle server archives nothing.
  if (rows[0]?.stale) await sql`select pg_switch_wal()`.execute(db.kysely);
}

/** The server's current timeline: a base backup of an earlier one cannot be replayed onto it. */
async function currentTimeline(db: Database): Promise<number> {
  const { rows } = await sql<{ timeline_id: number }>`select timeline_id from pg_control_checkpoint()`.execute(db.kysely);
  return Number(rows[0]?.timeline_id ?? 1);
}

/**
 * One round of the agent's work. WAL is shipped every round (RPO: archive_timeout plus one round);
 * a base backup is taken when there is none on the server's timeline or the newest is a
 * BACKUP_INTERVAL old; the newest is proven by a restore drill once a BACKUP_VERIFY_INTERVAL;
 * retention then removes old base backups and the WAL only they needed.
 */
export async function agentRound(options: BackupAgentOptions, attempts: AgentAttempts = {}): Promise<AgentRoundResult> {
  const { service, db, dataDir, spoolDir, log } = options;
  const now = options.now ?? Date.now;
  // A base backup or a drill that failed is tried again after a pause, not every round.
  const due = (last: number | undefined) => last === undefined || now() - last >= RETRY_AFTER_MS;
  const { identity, recipient } = await service.keys();
  await closeStaleSegment(db).catch((error: unknown) => log.error({ err: error instanceof Error ? error.message : String(error) }, 'backups: could not close the WAL segment in use'));
  const shipped = await shipWal({ catalog: service.catalog, recipient, spoolDir, identity });
  const result: AgentRoundResult = { shipped: shipped.shipped.length, deleted: 0 };
  if (attempts.checked !== undefined && now() - attempts.checked < CHECK_EVERY_MS) return result;
  attempts.checked = now();

  const backups = (await service.catalog.list()).filter((backup) => backup.kind === 'postgres-base');
  const newest = backups.at(-1);
  const timeline = await currentTimeline(db);
  const stale = !newest || now() - Date.parse(newest.takenAt) >= options.intervalMs || (newest.postgres && walTimeline(newest.postgres.startWal) !== timeline);
  if (stale && due(attempts.backup)) {
    attempts.backup = now();
    result.backup = await takePostgresBaseBackup({ catalog: service.catalog, recipient, kysely: db.kysely, dataDir, spoolDir, reason: newest ? 'interval' : 'manual', identity, now: () => new Date(now()) });
    attempts.backup = undefined;
    log.info({ id: result.backup.id, bytes: result.backup.bytes, ms: result.backup.durationMs }, 'backups: base backup taken');
  }

  const verified = await service.catalog.verifiedTimes();
  const candidate = result.backup ?? newest;
  const lastDrill = Math.max(-Infinity, ...[...verified.values()].map((at) => Date.parse(at)));
  if (candidate && now() - lastDrill >= options.verifyIntervalMs && due(attempts.verify)) {
    attempts.verify = now();
    const report = await verifyPostgresBackup({ catalog: service.catalog, identity, backupId: candidate.id });
    await service.catalog.markVerified(candidate.id, new Date(now()), { products: Object.entries(report.products).map(([product, rows]) => ({ product, rows })) });
    attempts.verify = undefined;
    result.verified = candidate.id;
    log.info({ id: candidate.id, ms: report.durationMs }, 'backups: restore drill passed');
  }

  const all = (await service.catalog.list()).filter((backup) => backup.kind === 'postgres-base');
  const doomed = backupsToDelete(all, now());
  for (const backup of doomed) await service.catalog.delete(backup.id);
  const kept = all.filter((backup) => !doomed.includes(backup));
  const walKeys = (await service.catalog.store.list('wal/')).filter((key) => walNameOfKey(key) !== undefined);
  const oldWal = walToDelete(walKeys, kept[0]);
  for (const key of oldWal) await service.catalog.store.delete(key);
  result.deleted = doomed.length + oldWal.length;
  if (result.deleted > 0) log.info({ backups: doomed.length, wal: oldWal.length }, 'backups: retention deleted old backups and WAL');
  return result;
}

/**
 * The backup agent: rounds until `signal` aborts, each failure logged and tried again at the next
 * round (a drill's or a backup's failure does not stop WAL shipping).
 */
export async function runBackupAgent(options: BackupAgentOptions, signal: AbortSignal): Promise<void> {
  const roundMs = options.roundMs ?? WAL_SHIP_INTERVAL_MS;
  const attempts: AgentAttempts = {};
  while (!signal.aborted) {
    await agentRound(options, attempts).catch((error: unknown) => options.log.error({ err: error instanceof Error ? error.message : String(error) }, 'backups: the agent round failed; tried again at the next'));
    await delay(roundMs, undefined, { signal }).catch(() => undefined);
  }
}
