import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { loadReleaseConfig, REPO_ROOT } from '../config';
import { APP_NAMES, appFolder, distDir, isAppName, type AppName } from '../releases/apps';
import { list, promote, publish, RefusedError, rollback, type Output, type ReleaseContext } from '../releases/commands';
import { LockHeldError } from '../releases/lock';

/**
 * Immutable releases with instant rollback (see api/README.md, "Releases"):
 *   npm run release -- <app>                 build if stale, publish, make current
 * and --list, --rollback, --promote <id>. Exit codes: 0 done, 1 refused or failed, 2 bad usage.
 */

const APPS = APP_NAMES.join('|');
export const USAGE = [
  `Usage: npm run release -- <${APPS}> [--dist <dir>] [--keep <n>]`,
  '         build the app if stale (or take the build in --dist), publish it as a new release, make it current',
  '       npm run release -- <app> --list            list the kept releases (* = current)',
  '       npm run release -- <app> --rollback        make the previous release current again',
  '       npm run release -- <app> --promote <id>    make any kept release current',
  'Environment: RELEASES_DIR (default data/releases), RELEASES_KEEP (default 5), STATIC_ROOT.',
].join('\n');

export class UsageError extends Error {}

type Action = { kind: 'publish'; dist?: string; keep?: number } | { kind: 'list' } | { kind: 'rollback' } | { kind: 'promote'; id: string };

export function parseArgs(argv: readonly string[]): { app: AppName; action: Action } {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? '';
    if (!arg.startsWith('-')) {
      positional.push(arg);
      continue;
    }
    const [flag = '', inline] = arg.split(/=(.*)/s, 2);
    if (flag === '--help' || flag === '-h') throw new UsageError(USAGE);
    if (!['--dist', '--keep', '--list', '--rollback', '--promote'].includes(flag)) throw new UsageError(`Unknown option ${flag}`);
    if (flags.has(flag)) throw new UsageError(`${flag} is given twice`);
    const takesValue = flag === '--dist' || flag === '--keep' || flag === '--promote';
    const value = takesValue ? (inline ?? argv[(index += 1)]) : true;
    if (value === undefined || value === '') throw new UsageError(`${flag} needs a value`);
    flags.set(flag, value);
  }
  const [app, ...rest] = positional;
  if (app === undefined) throw new UsageError(`Name the app: ${APPS}`);
  if (!isAppName(app)) throw new UsageError(`Unknown app "${app}": ${APPS}`);
  if (rest.length > 0) throw new UsageError(`Unexpected arguments: ${rest.join(' ')}`);

  const commands = ['--list', '--rollback', '--promote'].filter((flag) => flags.has(flag));
  if (commands.length > 1) throw new UsageError(`Choose one of ${commands.join(', ')}`);
  const publishing = commands.length === 0;
  for (const flag of ['--dist', '--keep']) {
    if (!publishing && flags.has(flag)) throw new UsageError(`${flag} only applies when publishing`);
  }
  if (commands[0] === '--list') return { app, action: { kind: 'list' } };
  if (commands[0] === '--rollback') return { app, action: { kind: 'rollback' } };
  if (commands[0] === '--promote') return { app, action: { kind: 'promote', id: String(flags.get('--promote')) } };

  const keepText = flags.get('--keep');
  const keep = keepText === undefined ? undefined : Number(keepText);
  if (keep !== undefined && (!Number.isInteger(keep) || keep < 1)) throw new UsageError(`--keep must be a whole number of at least 1, got "${String(keepText)}"`);
  const dist = flags.get('--dist');
  return { app, action: { kind: 'publish', dist: typeof dist === 'string' ? dist : undefined, keep } };
}

/** Builds the app's workspace when its dist is missing or older than its sources. */
function buildIfStale(app: AppName): void {
  const script = path.join(REPO_ROOT, 'scripts/build-if-stale.mjs');
  const result = spawnSync(process.execPath, [script, appFolder(app)], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new RefusedError(`The build of ${appFolder(app)} failed; nothing was published.`);
}

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

const processIo: Io = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** Runs the command; resolves with the exit code. */
export async function main(argv: readonly string[], env: Record<string, string | undefined> = process.env, io: Io = processIo): Promise<number> {
  try {
    const { app, action } = parseArgs(argv);
    const config = loadReleaseConfig(env);
    const context: ReleaseContext = { ...config, keep: config.releasesKeep, repoRoot: REPO_ROOT };
    let output: Output;
    if (action.kind === 'list') output = await list(context, app);
    else if (action.kind === 'rollback') output = await rollback(context, app);
    else if (action.kind === 'promote') output = await promote(context, app, action.id);
    else {
      if (!action.dist) buildIfStale(app);
      // A build made here lands in the repo's dist; --dist (CI artifacts) is relative to where the
      // caller stood (npm run moves to the repo root and keeps that folder in INIT_CWD).
      const dist = action.dist ? path.resolve(env.INIT_CWD ?? process.cwd(), action.dist) : distDir(REPO_ROOT, app);
      output = await publish(context, app, dist, action.keep ?? context.keep);
    }
    output.forEach((line) => io.out(line));
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(error.message === USAGE ? USAGE : `${error.message}\n${USAGE}`);
      return 2;
    }
    const known = error instanceof RefusedError || error instanceof LockHeldError;
    io.err(known ? (error as Error).message : `Release failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
