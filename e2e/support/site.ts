import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { apiProcessCommand } from '../../api/test/helpers/api-process-command';

export const ROOT = path.resolve(__dirname, '../..');

export interface RunningSite {
  baseUrl: string;
  /** SITE_URL: the site's public origin (the baseUrl's, unless started with another host name). */
  siteUrl: string;
  port: number;
  /** The site's DATABASE_URL: its own SQLite file, unless the test gave it another database. */
  databaseUrl: string;
  /**
   * What `npm run release` needs to run on this site (on top of process.env): its database, its
   * release store and cache, its public URL, and the settings of the test that the command reads
   * too (STATIC_ROOT, REMOTE_*_URL, RELEASES_KEEP, …).
   */
  releaseEnv: Record<string, string>;
  stop(): Promise<void>;
}

/** The folder of prepared covers every site of a run shares (MEDIA_DIR). */
const E2E_MEDIA_DIR = path.join(os.tmpdir(), 'agency-e2e-media');

/** The settings `npm run release` reads (config/delivery, config/database), passed on when a test sets them. */
const RELEASE_SETTING = /^(?:DATABASE_URL|SITE_URL|STATIC_ROOT|REMOTE_BUILDS_DIR|REMOTE_[A-Z]+_URL|RELEASE_STORE|RELEASE_CACHE_DIR|RELEASES_KEEP|RELEASE_PREVIEW_SECRET|S3_[A-Z_]+|AWS_[A-Z_]+)$/;

/**
 * Listens on `port` of 127.0.0.1 (0: one the system picks) and closes again: the port it listened
 * on, or undefined when another holds it.
 */
function listenOnce(port: number): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(undefined) : reject(error)));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function freePort(): Promise<number> {
  const port = await listenOnce(0);
  if (port === undefined) throw new Error('no free port of 127.0.0.1');
  return port;
}

/**
 * Where the system starts handing out ports by itself, to a server on port 0 or a connection's own
 * end: Linux's ip_local_port_range (32768 by default); macOS starts higher.
 */
function ephemeralPortsStart(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
}

/** Above the well-known services' ports. */
const PORTS_FOR_LATER_START = 20_000;

/**
 * A free port of 127.0.0.1 for a program that binds it much later: a container's published port,
 * a proxy started once a stack is up. One from freePort lies where the system hands out ports by
 * itself, so any server or connection of a suite running beside may get it meanwhile (compose
 * once failed on "port is already allocated"); these lie below that range, picked at random.
 */
export async function freePortForLater(): Promise<number> {
  const end = Math.max(ephemeralPortsStart(), PORTS_FOR_LATER_START + 1000);
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = PORTS_FOR_LATER_START + Math.floor(Math.random() * (end - PORTS_FOR_LATER_START));
    if ((await listenOnce(port)) !== undefined) return port;
  }
  throw new Error(`no free port of 127.0.0.1 between ${PORTS_FOR_LATER_START} and ${end}`);
}

/** Sends `signal` to every process of the group `pgid` still running. */
function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

/** Resolves true once no process of the group `pgid` is left, false if one still is after `ms`. */
async function groupExited(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return true;
    }
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function waitForHealth(baseUrl: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Site exited early (${child.exitCode}):\n${output()}`);
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Site did not become healthy:\n${output()}`);
}

/**
 * Starts the production build exactly as `npm run serve` does (the API server serving the
 * shell and the remotes), on a free port with a fresh SQLite database and release store of its
 * own. Two sites share releases when the second is given the first's DATABASE_URL and
 * RELEASE_STORE (see progressive-delivery.e2e.test.ts).
 */
export interface StartSiteOptions {
  /**
   * The host name of SITE_URL (the server listens on 127.0.0.1 either way): `localhost` for a
   * browser that uses passkeys, which WebAuthn refuses on an IP address.
   */
  siteHost?: string;
  /**
   * Start it with `npm run serve` itself, as the README says. Otherwise the server is started as
   * that script starts it (`node dist/server.js` in api/), without the two npm processes around
   * it: about 0.8 CPU-seconds a start, and the suites start sixty sites.
   */
  throughNpm?: boolean;
}

export async function startSite(env: Record<string, string> = {}, { siteHost = '127.0.0.1', throughNpm = false }: StartSiteOptions = {}): Promise<RunningSite> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'agency-e2e-'));
  const siteEnv: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${path.join(dataDir, 'agency.sqlite')}`,
    // The site's public origin: where this test reaches it, unless a test puts a proxy in front.
    SITE_URL: `http://${siteHost}:${port}`,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '1000',
    // Every page a suite opens reports telemetry from one address.
    TELEMETRY_RATE_LIMIT: '100000',
    // Releases a developer published locally (the database's, data/release-store, data/releases)
    // must not change what a test sees, nor a test's releases land there: the release files, the
    // local copies of a remote store's, and a RELEASES_DIR that does not exist (nothing to import).
    RELEASE_STORE: `file:${path.join(dataDir, 'release-store')}`,
    RELEASE_CACHE_DIR: path.join(dataDir, 'release-cache'),
    RELEASES_DIR: path.join(dataDir, 'releases'),
    // Covers the content sync prepares, out of the checkout's data/ and shared by every site a run
    // starts, as the API suites share theirs: their names are hashes of what they hold, so no two
    // sites' files clash, and each start prepares none already there (about a CPU-second each).
    MEDIA_DIR: E2E_MEDIA_DIR,
    // A snapshot at every start would cost each of the sixty sites a run starts; the backup suite turns them on.
    BACKUP_STORE: 'off',
    ...env,
  };
  const { command, args, cwd } = throughNpm ? { command: 'npm', args: ['run', 'serve', '--silent'], cwd: ROOT } : apiProcessCommand('src/server.ts', []);
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...siteEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      signalGroup(child.pid!, 'SIGTERM');
      await exited;
    }
    // npm exits at once on SIGTERM, the server after its graceful shutdown (its last database
    // writes): the folder goes once nothing writes to it any more, else it may be left half removed.
    if (!(await groupExited(child.pid!, 20_000))) {
      signalGroup(child.pid!, 'SIGKILL');
      await groupExited(child.pid!, 5_000);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(baseUrl, child, () => log);
  } catch (error) {
    await stop();
    throw error;
  }
  const releaseEnv = Object.fromEntries(Object.entries(siteEnv).filter(([name]) => RELEASE_SETTING.test(name)));
  return { baseUrl, siteUrl: siteEnv.SITE_URL!, port, databaseUrl: siteEnv.DATABASE_URL!, releaseEnv, stop };
}

/**
 * The release command (`npm run release -- <args>`) on `site` (its database and release store), as
 * an operator runs it on the server; returns what it printed, or throws with its output.
 */
export function runRelease(site: RunningSite, ...args: string[]): string {
  const { command, args: commandArgs, cwd } = apiProcessCommand('src/delivery/cli/release.ts', args);
  const result = spawnSync(command, commandArgs, { cwd, env: { ...process.env, ...site.releaseEnv }, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`release ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** The staff command (`npm run staff -- <args>`) on `site` (its database and SITE_URL), as an admin runs it on the server. */
export function runStaffCommand(site: RunningSite, ...args: string[]): string {
  const { command, args: commandArgs, cwd } = apiProcessCommand('src/staff/cli/staff.ts', args);
  const result = spawnSync(command, commandArgs, { cwd, env: { ...process.env, ...site.releaseEnv }, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`staff ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/**
 * `npm run release -- <args>` as a team runs it on its own machine (with `--site` and `--token`,
 * nothing of a site's settings), without blocking this process (a proxy it calls through may run
 * here); resolves with what it printed, or rejects with its output.
 */
export function releaseCli(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', 'release', '--silent', '--', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`release ${args.join(' ')} failed (${code}):\n${stdout}\n${stderr}`))));
  });
}
