// Brings the shared package's and the API's builds up to date before the API suite: the tests that
// start the API's own processes (servers, commands) run them compiled, as production does.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export default function buildGlobalSetup() {
  const result = spawnSync(process.execPath, [path.join(root, 'scripts/build-if-stale.mjs'), 'shared', 'api'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('Building the API for its suite failed');
}
