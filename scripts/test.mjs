// `npm test`: lint, type-check every workspace, then every jest suite (unit, API on SQLite and
// PostgreSQL, browser end-to-end). The last line sums all of them: `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const { WORKSPACES } = createRequire(import.meta.url)('../shared/webpack/apps.js');
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let passed = 0;
let failed = 0;
let skipped = 0;

function run(label, command, args) {
  console.log(`\n▶ ${label}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  return result.status === 0;
}

function check(label, command, args) {
  if (run(label, command, args)) passed += 1;
  else {
    failed += 1;
    console.log(`✖ ${label} failed`);
  }
}

check('lint (eslint)', 'npx', ['eslint', '.']);
check('api folder cycles', 'node', [path.join('api', 'scripts', 'check-folder-cycles.mjs')]);
// Each workspace's own `typecheck` script: tsc, plus the federation contract check in the apps.
for (const workspace of WORKSPACES) {
  check(`type-check ${workspace}`, 'npm', ['run', 'typecheck', '--silent', '-w', workspace]);
}
check('type-check e2e', 'npx', ['tsc', '-p', path.join('e2e', 'tsconfig.json')]);

const resultsDir = path.join(root, '.tmp');
mkdirSync(resultsDir, { recursive: true });
const resultsFile = path.join(resultsDir, 'jest-results.json');
rmSync(resultsFile, { force: true });
// --forceExit: on 2 cores jest runs every suite inside its own process (one worker, in band), so a
// handle any suite leaves open would keep the run from ending after its results are written.
const jestArgs = ['jest', '--json', `--outputFile=${resultsFile}`, '--forceExit', ...process.argv.slice(2)];
run('jest: unit, API (SQLite + PostgreSQL) and end-to-end suites', 'npx', jestArgs);
if (existsSync(resultsFile)) {
  const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
  passed += results.numPassedTests;
  failed += results.numFailedTests;
  skipped += results.numPendingTests + results.numTodoTests;
  // A suite that could not run at all (syntax error, failing setup) has no tests to count.
  failed += results.numRuntimeErrorTestSuites;
  if (!results.success && results.numFailedTests === 0 && results.numRuntimeErrorTestSuites === 0) failed += 1;
} else {
  console.log('✖ jest produced no results');
  failed += 1;
}

console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 ? 0 : 1);
