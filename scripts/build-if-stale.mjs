// Builds every workspace whose output is missing or older than its sources, in dependency
// order. `npm start` and the end-to-end suite use it so they never serve a stale build.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = '.build-stamp';

// Inputs every workspace shares: the shared package and the lockfile.
const COMMON_INPUTS = ['shared/src', 'shared/build', 'shared/styles', 'shared/package.json', 'package-lock.json', 'tsconfig.json'];
const OWN_INPUTS = ['src', 'public', 'webpack.config.js', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];

export const WORKSPACES = ['shared', 'shell', 'mfe-home', 'mfe-blog', 'mfe-forms', 'api'];

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

export function isStale(workspace) {
  const stamp = path.join(root, workspace, 'dist', STAMP);
  if (!existsSync(stamp)) return true;
  const builtAt = statSync(stamp).mtimeMs;
  const inputs = [...COMMON_INPUTS.map((p) => path.join(root, p)), ...OWN_INPUTS.map((p) => path.join(root, workspace, p))];
  return inputs.some((input) => newestMtime(input) > builtAt);
}

export function buildIfStale({ log = console.log } = {}) {
  for (const workspace of WORKSPACES) {
    if (!isStale(workspace)) continue;
    log(`[build] ${workspace} is missing or stale: building`);
    const result = spawnSync('npm', ['run', 'build', '--silent', '-w', workspace], { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`Build of ${workspace} failed`);
    writeFileSync(path.join(root, workspace, 'dist', STAMP), new Date().toISOString());
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    buildIfStale();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
