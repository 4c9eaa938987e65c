// Builds every workspace whose output is missing or older than its sources, in dependency
// order. `npm start`, the commands and the end-to-end and API suites use it so they never run a
// stale build. `node scripts/build-if-stale.mjs mfe-blog` builds only shared and the named workspaces.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { SHARED_FOLDER, WORKSPACES } = require('../shared/webpack/apps.js');
const { STAMP_FILE, gitRevision, writeBuildStamp } = require('../shared/webpack/build-stamp.js');
const { TEST_FILE, buildInputs } = require('./build-inputs.cjs');

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export { WORKSPACES };

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stats = statSync(target);
  if (!stats.isDirectory()) return TEST_FILE.test(target) ? 0 : stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

export function isStale(workspace) {
  const stamp = path.join(root, workspace, 'dist', STAMP_FILE);
  if (!existsSync(stamp)) return true;
  const builtAt = statSync(stamp).mtimeMs;
  return buildInputs(root, workspace).some((input) => newestMtime(path.join(root, input)) > builtAt);
}

/** The workspaces of `only` and shared, in build order. */
const withShared = (only) => WORKSPACES.filter((w) => w === SHARED_FOLDER || only.includes(w));

/** Builds the stale ones of `only` (default: every workspace), shared first. */
export function buildIfStale({ log = console.log, only = WORKSPACES } = {}) {
  const unknown = only.filter((workspace) => !WORKSPACES.includes(workspace));
  if (unknown.length) throw new Error(`Unknown workspace ${unknown.join(', ')}; known: ${WORKSPACES.join(', ')}`);
  for (const workspace of withShared(only)) {
    if (!isStale(workspace)) continue;
    log(`[build] ${workspace} is missing or stale: building`);
    // The sources built are those of this moment.
    const revision = gitRevision(root);
    const result = spawnSync('npm', ['run', 'build', '--silent', '-w', workspace], { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`Build of ${workspace} failed`);
    writeBuildStamp(path.join(root, workspace, 'dist'), { revision });
  }
}

/** Taken (flock) while a command-line run builds: test suites and commands started at once build once. */
const BUILD_LOCK = path.join(os.tmpdir(), 'agency-build.lock');
const LOCK_HELD = 'AGENCY_BUILD_LOCK_HELD';

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const only = process.argv.slice(2);
    if (!process.env[LOCK_HELD] && withShared(only.length ? only : WORKSPACES).some(isStale)) {
      // Once the lock is ours, again from the start: another run may have built meanwhile.
      const locked = spawnSync('flock', [BUILD_LOCK, process.execPath, ...process.argv.slice(1)], { stdio: 'inherit', env: { ...process.env, [LOCK_HELD]: '1' } });
      // No flock on this system: build without the lock.
      if (!locked.error) process.exit(locked.status ?? 1);
    }
    buildIfStale(only.length ? { only } : {});
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
