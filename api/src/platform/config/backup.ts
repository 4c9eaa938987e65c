import path from 'node:path';
import { Type } from '@sinclair/typebox';
import { parseDuration } from '../lib/duration';
import { invalid, readEnv, repoPath, variable, type Env } from './env';
import { loadS3Config, type S3Config } from './object-store';

/** Where the database's backups go, how often, and the key they are sealed with. */
export interface BackupConfig {
  /**
   * BACKUP_STORE: `file:<dir>` (relative to the repo; `file:data/backups` by default) or
   * `s3://<bucket>/<prefix>` through the same S3 settings as releases; `off` takes none.
   */
  store?: string;
  s3: S3Config;
  /**
   * BACKUP_INTERVAL: time between two full backups: SQLite snapshots (5 min by default: the most
   * a lost disk can cost) or PostgreSQL base backups (24 h: archived WAL covers the time between).
   */
  intervalMs: number;
  /** BACKUP_VERIFY_INTERVAL: how often the site restores its newest backup into a scratch database to prove it. */
  verifyIntervalMs: number;
  /**
   * BACKUP_KEY (or BACKUP_KEY_FILE): the age identity (`AGE-SECRET-KEY-1…`) backups are encrypted
   * to and restored with. Unset: one made at the first start and kept in `keyFile`.
   */
  key?: string;
  /** BACKUP_KEY_PATH: where a key made by the site is kept (data/backup-key.txt by default): copy it off the machine. */
  keyFile: string;
  /** The backup agent's view of a PostgreSQL server (`npm run backup -- agent`); unused on SQLite. */
  postgres?: {
    /** BACKUP_PG_DATA_DIR (else PGDATA): the server's data directory, readable by the agent. */
    dataDir: string;
    /** BACKUP_WAL_SPOOL: where the server's archive_command copies WAL (`<data dir>/wal-spool` by default). */
    spoolDir: string;
  };
}

function duration(fallback: string, minimumMs: number) {
  return variable((value) => {
    const ms = parseDuration(value.trim() || fallback);
    if (ms === undefined || ms < minimumMs) invalid(`must be a duration of at least ${minimumMs / 1000} s such as 5m or 1h, got "${value}"`);
    return ms;
  });
}

export const BackupEnv = Type.Object({
  BACKUP_STORE: variable((value) => {
    const store = value.trim() || 'file:data/backups';
    return store.toLowerCase() === 'off' ? undefined : store;
  }),
  BACKUP_VERIFY_INTERVAL: duration('24h', 60_000),
  BACKUP_KEY: variable((value) => {
    const key = value.trim();
    if (key && !/^AGE-SECRET-KEY-(PQ-)?1[0-9A-Z]+$/.test(key)) invalid('must be an age identity (AGE-SECRET-KEY-1…), as `npm run backup -- key` prints');
    return key || undefined;
  }),
  BACKUP_KEY_PATH: repoPath('data/backup-key.txt'),
  BACKUP_PG_DATA_DIR: variable((value) => value.trim() || undefined),
  PGDATA: variable((value) => value.trim() || undefined),
  BACKUP_WAL_SPOOL: variable((value) => value.trim() || undefined),
});

/** The spool's folder inside the data directory, which base backups leave out. */
export const WAL_SPOOL_FOLDER = 'wal-spool';

const DEFAULT_INTERVAL = { sqlite: '5m', postgres: '24h' };

export function loadBackupConfig(env: Env, databaseUrl: string): BackupConfig {
  const vars = readEnv(BackupEnv, env);
  const fallback = DEFAULT_INTERVAL[databaseUrl.startsWith('sqlite:') ? 'sqlite' : 'postgres'];
  const dataDir = vars.BACKUP_PG_DATA_DIR ?? vars.PGDATA;
  const interval = readEnv(Type.Object({ BACKUP_INTERVAL: duration(fallback, 10_000) }), env).BACKUP_INTERVAL;
  return {
    store: vars.BACKUP_STORE,
    s3: loadS3Config(env),
    intervalMs: interval,
    verifyIntervalMs: vars.BACKUP_VERIFY_INTERVAL,
    key: vars.BACKUP_KEY,
    keyFile: vars.BACKUP_KEY_PATH,
    ...(dataDir && { postgres: { dataDir: path.resolve(dataDir), spoolDir: path.resolve(vars.BACKUP_WAL_SPOOL ?? path.join(dataDir, WAL_SPOOL_FOLDER)) } }),
  };
}
