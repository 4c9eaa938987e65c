// The test loop (docs/testing.md):
//   npm test                  lint, folder cycles, type-check and every jest suite (unit, API on
//                             SQLite and PostgreSQL, browser end-to-end); the container suites run
//                             beside the rest, since they mostly wait on the engine, then the
//                             suites that count renders; the static checks once those are over,
//                             on the CPU the suites leave
//   npm test -- <jest args>   only the jest suites those select (`npm test -- e2e/forms`), nothing else
//   npm run test:quick        lint, folder cycles, type-check, unit suites and the API on SQLite
// It ends with the slowest steps and suites, and the line `N passed, N failed` summed over all.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { WORKSPACES } = require('../shared/webpack/apps.js');
const { CONTAINER_SUITES, CONTENTION_SENSITIVE_SUITES, QUICK_PROJECTS } = require('./jest/suites.js');

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = path.join(root, '.tmp', 'test');
const started = Date.now();
/** Every step and suite that ran, with how long it took: the closing table. */
const timings = [];
const totals = { passed: 0, failed: 0, skipped: 0 };
/** Every failed test or suite, with the start of its message: repeated at the end, where a CI log's tail shows it. */
const failures = [];

const seconds = (since) => (Date.now() - since) / 1000;

/**
 * Node's on-disk cache of compiled modules, for every Node process the run starts (type-checks,
 * lint, jest, and the servers and commands the suites start, hundreds of them): each then skips
 * compiling what an earlier one compiled. Node checks each entry against its source.
 */
const NODE_COMPILE_CACHE = path.join(root, '.tmp', 'node-compile-cache');

/**
 * The priority (nice value) of what runs beside the container suites. The engine's containers
 * share one CPU weight (here their cgroup's), as much as a single process of ours at the default
 * priority: beside two jest workers with their servers, databases and browsers, a stack of a
 * dozen containers got far less CPU than it takes alone, and the Swarm and compose suites timed
 * out waiting for it to converge (docs/testing.md). At 5 each process of the rest weighs a third
 * of a default one while both want the cores; the cores are still all theirs whenever the
 * containers wait.
 */
const BESIDE_CONTAINERS_NICENESS = 5;

/**
 * The priority of the static checks in `npm test`, which run beside the main lane once the
 * container lane is over: they take what CPU the suites leave (the browser suites, last in the
 * main lane, wait on pages and timers a fifth of their time), at a tenth of the main lane's
 * weight while both want the cores, so they neither hold up the suites nor wait for them to end.
 */
const STATIC_CHECKS_NICENESS = 15;

/**
 * Set for the static checks, which type-check the shell too: the shell's type-check checks the
 * federation contract of every remote it composes, with the same compiler options as each
 * remote's own, so the remotes' type-checks leave theirs to it (shared/typecheck/check-exposes.js).
 */
const CONTRACT_CHECKED_BY_SHELL = { FEDERATION_CONTRACT_CHECKED_BY_SHELL: '1' };

/**
 * Runs a command; resolves with whether it exited 0. Its output goes to this terminal, or to
 * `logFile` (a lane that runs beside another, printed once the run ends). `niceness` lowers its
 * priority, and that of every process it starts.
 */
function run(label, command, args, { logFile, env, niceness } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { NODE_COMPILE_CACHE, ...process.env, ...env },
      stdio: logFile ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    // Set before the command has started anything of its own: its processes inherit it.
    if (niceness && child.pid) os.setPriority(child.pid, niceness);
    if (!logFile) {
      console.log(`\n▶ ${label}`);
      child.on('error', () => resolve(false));
      child.on('close', (code) => resolve(code === 0));
      return;
    }
    // Both streams into one file, which ends once the process has closed both, and the run with
    // the file written through: it is read right after.
    const log = createWriteStream(logFile);
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.on('error', () => log.end(() => resolve(false)));
    child.on('close', (code) => log.end(() => resolve(code === 0)));
  });
}

/**
 * A network of the main lane's own: its loopback, and one veth pair with an address (Chromium
 * counts a machine with no such interface offline). The container engine adds and removes network
 * interfaces all through the container lane, and a Chromium on the same network fails whatever it
 * is fetching at that moment with ERR_NETWORK_CHANGED: a visitor's browser, on another machine,
 * never sees that (docs/testing.md). Every server the lane's suites start listens on its loopback.
 */
const OWN_NETWORK_SETUP =
  'ip link set lo up && ip link add lane0 type veth peer name lane1 && ip link set lane1 up && ip link set lane0 up && ip addr add 198.18.0.1/24 dev lane0';

/**
 * `command` and `args` to run in a network of their own, where this machine lets us make one
 * (root, `unshare`, `ip`; tried once); elsewhere, as they are.
 */
function inOwnNetwork(command, args) {
  const canMake = spawnSync('unshare', ['--net', '--', 'sh', '-c', OWN_NETWORK_SETUP], { stdio: 'ignore' }).status === 0;
  if (!canMake) return { command, args, own: false };
  return { command: 'unshare', args: ['--net', '--', 'sh', '-c', `${OWN_NETWORK_SETUP} && exec "$@"`, 'sh', command, ...args], own: true };
}

/** What the static checks that failed printed, for the end of a run whose suites printed meanwhile. */
const failedStepOutput = [];

/**
 * A step that counts as one passed or failed check (lint, a type-check). With `logged`, its
 * output goes to a file, printed at the end if it failed.
 */
async function check(label, command, args, { logged, ...options } = {}) {
  const since = Date.now();
  const logFile = logged ? path.join(resultsDir, `${label.replace(/[^a-z0-9]+/gi, '-')}.log`) : undefined;
  const ok = await run(label, command, args, { ...options, logFile });
  timings.push({ what: label, kind: 'step', seconds: seconds(since) });
  if (ok) totals.passed += 1;
  else {
    totals.failed += 1;
    console.log(`✖ ${label} failed`);
    if (logFile) failedStepOutput.push({ label, output: readFileSync(logFile, 'utf8') });
  }
}

/**
 * Lint, the folder-cycle check and every type-check, two at a time (each is one single-threaded
 * process); `options` as check takes them (a priority, whether to keep the output for the end).
 */
async function staticChecks(options) {
  // Lint and the type-checks keep what they learnt in .tmp/ (eslint's results per file by content,
  // tsc's per program): a run after a small change checks again only what it touched. A clean
  // clone starts without them.
  const steps = [
    ['lint (eslint)', 'npx', ['eslint', '.', '--cache', '--cache-strategy', 'content', '--cache-location', path.join('.tmp', 'eslint-cache')]],
    ['folder cycles', 'node', [path.join('scripts', 'check-folder-cycles.mjs')]],
    // Each workspace's own `typecheck` script: tsc, plus the federation contract check in the apps.
    ...WORKSPACES.map((workspace) => [`type-check ${workspace}`, 'npm', ['run', 'typecheck', '--silent', '-w', workspace]]),
    ['type-check e2e', 'npx', ['tsc', '-p', path.join('e2e', 'tsconfig.json'), '--incremental', '--tsBuildInfoFile', path.join('.tmp', 'tsc', 'e2e.tsbuildinfo')]],
  ];
  const next = async () => {
    for (let step = steps.shift(); step; step = steps.shift()) await check(...step, { ...options, env: CONTRACT_CHECKED_BY_SHELL });
  };
  await Promise.all([next(), next()]);
}

/**
 * One jest run; adds its counts to the totals and its suites' times to the table. `name` names its
 * result files; `logFile` sends its output there instead of to the terminal.
 */
async function jest(name, label, args, { logFile, niceness, ownNetwork = false } = {}) {
  const resultsFile = path.join(resultsDir, `${name}-results.json`);
  const timingsFile = path.join(resultsDir, `${name}-timings.json`);
  rmSync(resultsFile, { force: true });
  rmSync(timingsFile, { force: true });
  const since = Date.now();
  // --forceExit: a handle a suite leaves open must not keep the run from ending after its results
  // are written.
  const jestArgs = [
    'jest',
    '--json',
    `--outputFile=${resultsFile}`,
    '--forceExit',
    ...args,
  ];
  const { command, args: commandArgs, own } = ownNetwork ? inOwnNetwork('npx', jestArgs) : { command: 'npx', args: jestArgs, own: false };
  if (ownNetwork) console.log(own ? `\n${label}: in a network of its own` : `\n${label}: on this machine's network (no network of its own without root, unshare and ip)`);
  await run(label, command, commandArgs, { logFile, niceness, env: { JEST_TIMINGS_FILE: timingsFile } });
  timings.push({ what: label, kind: 'jest run', seconds: seconds(since) });
  if (existsSync(timingsFile)) {
    for (const suite of JSON.parse(readFileSync(timingsFile, 'utf8'))) {
      timings.push({ what: `${suite.file} (${suite.passed + suite.failed} tests)`, project: suite.project, kind: 'suite', seconds: suite.seconds });
    }
  }
  if (!existsSync(resultsFile)) {
    console.log(`✖ ${label}: jest produced no results`);
    totals.failed += 1;
    return;
  }
  const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
  collectFailures(results);
  totals.passed += results.numPassedTests;
  totals.failed += results.numFailedTests;
  totals.skipped += results.numPendingTests + results.numTodoTests;
  // A suite that could not run at all (syntax error, failing setup) has no tests to count.
  totals.failed += results.numRuntimeErrorTestSuites;
  if (!results.success && results.numFailedTests === 0 && results.numRuntimeErrorTestSuites === 0) totals.failed += 1;
}

// eslint-disable-next-line no-control-regex -- jest's messages carry terminal colour codes
const withoutColours = (text) => text.replace(/\u001b\[[0-9;]*m/g, '');

/** The failed tests (or suites that could not run) of one jest run's results, for the closing list. */
function collectFailures(results) {
  for (const suite of results.testResults) {
    const file = path.relative(root, suite.name);
    const failed = suite.assertionResults.filter((test) => test.status === 'failed');
    for (const test of failed) failures.push({ what: `${file} › ${test.fullName}`, message: test.failureMessages.join('\n') });
    if (failed.length === 0 && suite.status === 'failed') failures.push({ what: file, message: suite.message });
  }
}

/** Each failure with the first lines of its message. */
function printFailures() {
  if (failures.length === 0) return;
  console.log(`\nWhat failed (${failures.length}):`);
  for (const { what, message } of failures) {
    // The message and where in the test it failed, without jest's and Node's own frames.
    const lines = withoutColours(message ?? '')
      .split('\n')
      .map((line) => line.trimEnd())
      .filter((line) => line.trim() !== '' && !/^\s*at (new Promise|.*(node_modules|node:internal))/.test(line));
    console.log(`✖ ${what}\n${lines.slice(0, 8).map((line) => `    ${line}`).join('\n')}`);
  }
}

function minutes(total) {
  const whole = Math.round(total);
  return whole >= 60 ? `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s` : `${whole} s`;
}

/** The ten slowest suites, every static-check step together, and the total. */
function printTimings() {
  const suites = timings.filter((entry) => entry.kind === 'suite').sort((a, b) => b.seconds - a.seconds);
  const steps = timings.filter((entry) => entry.kind === 'step');
  const runs = timings.filter((entry) => entry.kind === 'jest run');
  const rows = [
    ...suites.slice(0, 10).map((suite) => [suite.seconds, `${suite.project.padEnd(13)}${suite.what}`]),
    ...(steps.length > 0
      ? [
          [steps.filter((step) => step.what.startsWith('lint')).reduce((sum, step) => sum + step.seconds, 0), 'lint (eslint)'],
          [steps.filter((step) => !step.what.startsWith('lint')).reduce((sum, step) => sum + step.seconds, 0), `folder cycles and type-check (${steps.length - 1} steps, their times added up: two run at a time)`],
        ]
      : []),
    ...runs.map((entry) => [entry.seconds, `${entry.what}, from its start to its end`]),
  ];
  console.log(`\nWhere the time went (the ten slowest of ${suites.length} suites, the static checks, each jest run):`);
  for (const [time, what] of rows) console.log(`${time.toFixed(1).padStart(8)} s  ${what}`);
  console.log(`${' '.repeat(8)}total ${minutes(seconds(started))}`);
}

/** Jest arguments that run exactly these files of the e2e project. */
const browserSuites = (files) => ['--selectProjects', 'e2e', '--runTestsByPath', ...files];

async function main() {
  mkdirSync(resultsDir, { recursive: true });
  const args = process.argv.slice(2);
  if (args[0] === '--quick') {
    await staticChecks();
    // Two suites at a time: none of these drives a browser or times another process.
    await jest('quick', 'jest: unit suites and the API on SQLite', [...args.slice(1), '--maxWorkers=2', '--selectProjects', ...QUICK_PROJECTS]);
  } else if (args.length > 0) {
    await jest('selected', `jest ${args.join(' ')}`, args);
  } else {
    // The container suites wait on a Docker engine most of their time: they run beside the rest,
    // one after the other, their output kept until the end. The suites that count renders of
    // other processes follow them in that lane, at its priority: above the main lane's, so
    // processes beside them take what CPU they leave rather than delaying what they count.
    const containerLog = path.join(resultsDir, 'container-suites.log');
    const sensitiveLog = path.join(resultsDir, 'contention-sensitive-suites.log');
    const containerLane = [...CONTAINER_SUITES, ...CONTENTION_SENSITIVE_SUITES];
    console.log(`\n▶ ${containerLane.join(', ')} beside the rest; their output follows at the end (${path.relative(root, containerLog)}, ${path.relative(root, sensitiveLog)})`);
    const containers = jest('containers', 'jest: container suites', browserSuites(CONTAINER_SUITES), { logFile: containerLog }).then(() =>
      jest('sensitive', 'jest: suites that count renders of other processes, after the container suites', browserSuites(CONTENTION_SENSITIVE_SUITES), { logFile: sensitiveLog }),
    );
    // Not from the start: until the container lane is over, every core is wanted (the API suites
    // beside the containers) and what the checks took delayed the suites; after it, the browser
    // suites leave CPU idle.
    const checks = containers.then(() => staticChecks({ niceness: STATIC_CHECKS_NICENESS, logged: true }));
    await jest('main', 'jest: unit, API (SQLite + PostgreSQL) and browser suites', [
      // Two suites at a time, beside the container lane: one at a time leaves a core idle while
      // a suite waits on its servers, databases and timers; three at a time overload the two
      // cores (docs/testing.md).
      '--maxWorkers=2',
      '--testPathIgnorePatterns',
      ...containerLane.map((file) => `/${file.replaceAll('.', '\\.')}$`),
    ], { niceness: BESIDE_CONTAINERS_NICENESS, ownNetwork: true });
    await Promise.all([containers, checks]);
    for (const [suites, log] of [[CONTAINER_SUITES, containerLog], [CONTENTION_SENSITIVE_SUITES, sensitiveLog]]) {
      console.log(`\n▶ ${suites.join(', ')}, run beside the rest:`);
      console.log(readFileSync(log, 'utf8'));
    }
  }
  for (const { label, output } of failedStepOutput) console.log(`\n▶ ${label} (failed):\n${output}`);
  printTimings();
  printFailures();
  console.log(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
  process.exit(totals.failed === 0 ? 0 : 1);
}

await main();
