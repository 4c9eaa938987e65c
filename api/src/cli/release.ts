import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { loadDatabaseConfig, loadDeliveryConfig, REPO_ROOT, resolveSiteUrl } from '../config';
import {
  loadPreviewSecret,
  previewUrl,
  signPreviewToken,
  DEFAULT_STATUS_WINDOW_MS,
  parseSince,
  releaseStatus,
  APP_NAMES,
  appFolder,
  distDir,
  isAppName,
  type AppName,
  abort,
  canary,
  list,
  promote,
  promoteCandidate,
  publish,
  RefusedError,
  rollback,
  stage,
  type CanaryOptions,
  type ReleaseContext,
  type ReleaseResult,
  LockHeldError,
} from '../delivery';
import { createDatabase } from '../db/connection';
import { migrateToLatest } from '../db/migrate';
import { formatReleaseStatus } from './release-status-text';
import { formatReleaseResult } from './release-text';
import { ARG_MESSAGES, parseCliArgs, processIo, reportUsage, terminalIo, UsageError, type Io } from './parse-cli-args';

/**
 * Immutable releases with instant rollback and progressive delivery (see docs/operations.md, "Releases"):
 *   npm run release -- <app>                 build if stale, publish, make current
 * and --stage, --canary, --abort, --list, --rollback, --promote [<id>], --status, --help.
 * Exit codes: 0 done (or help shown), 1 refused or failed, 2 bad usage.
 */

/** Candidate page views before a canary's candidate is judged, unless --min-views says otherwise. */
export const DEFAULT_MIN_VIEWS = 100;

const APPS = APP_NAMES.join('|');
export const USAGE = [
  `Usage: npm run release -- <${APPS}> [--dist <dir>] [--keep <n>]`,
  '         build the app if stale (or take the build in --dist), publish it as a new release, make it current',
  '       npm run release -- <app> --list            list the kept releases (* = current)',
  '       npm run release -- <app> --rollback        make the previous release current again',
  '       npm run release -- <app> --promote <id>    make any kept release current',
  '       npm run release -- <app> --stage [--dist <dir>]',
  '         publish without making it current; prints a preview link (24 h) for one browser',
  '       npm run release -- <app> --canary <percent> [--dist <dir> | --id <release>] [--min-views <n>] [--promote-after <n>]',
  '         publish (or take a kept release) as the candidate for that share of visitors; it is rolled back by',
  `         itself when browsers report it worse than the current release after --min-views page views (default ${DEFAULT_MIN_VIEWS}),`,
  '         and promoted by itself after --promote-after healthy page views (default: never)',
  '       npm run release -- <app> --promote          make the candidate current for everyone',
  '       npm run release -- <app> --abort            drop the candidate',
  '       npm run release -- <app> --status [--since 1h] [--format text|json]',
  '         what visitors\' browsers reported of the current and the kept releases: page views, errors,',
  '         load failures, p75 of the Web Vitals, the top errors at their original source lines',
  '       npm run release -- --help                  print this help',
  'Environment: RELEASES_DIR (default data/releases), RELEASES_KEEP (default 5), STATIC_ROOT, DATABASE_URL (--status),',
  '  SITE_URL and RELEASE_PREVIEW_SECRET (--stage: the preview link).',
].join('\n');

type Action =
  | { kind: 'publish'; dist?: string; keep?: number }
  | { kind: 'stage'; dist?: string; keep?: number }
  | ({ kind: 'canary' } & CanaryOptions)
  | { kind: 'abort' }
  | { kind: 'list' }
  | { kind: 'rollback' }
  /** No id: the candidate. */
  | { kind: 'promote'; id?: string }
  | { kind: 'status'; since: Date; format: 'text' | 'json' };

const OPTIONS = {
  dist: { type: 'string' },
  keep: { type: 'string' },
  list: { type: 'boolean' },
  rollback: { type: 'boolean' },
  promote: { type: 'string' },
  stage: { type: 'boolean' },
  canary: { type: 'string' },
  id: { type: 'string' },
  'min-views': { type: 'string' },
  'promote-after': { type: 'string' },
  abort: { type: 'boolean' },
  status: { type: 'boolean' },
  since: { type: 'string' },
  format: { type: 'string' },
} as const;

/** A whole number of at least `min` from `--name`, or the default when not given. */
function wholeNumber(values: Record<string, string | boolean | undefined>, name: string, min: number): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (typeof raw !== 'string' || !/^\d+$/.test(raw) || value < min) throw new UsageError(`--${name} must be a whole number of at least ${min}, got "${String(raw)}"`);
  return value;
}

/** `--promote` with no id after it: the candidate. Taken out before parsing, which wants a value for it. */
function takeBarePromote(argv: readonly string[]): { args: string[]; bare: boolean } {
  const index = argv.findIndex((arg, at) => arg === '--promote' && (argv[at + 1] === undefined || argv[at + 1]!.startsWith('-')));
  return index < 0 ? { args: [...argv], bare: false } : { args: argv.filter((_, at) => at !== index), bare: true };
}

export function parseReleaseArgs(argv: readonly string[]): { app: AppName; action: Action } {
  const barePromote = takeBarePromote(argv);
  const parsed = parseCliArgs(barePromote.args, OPTIONS, ARG_MESSAGES.en, 1);
  const { positionals } = parsed;
  if (barePromote.bare && parsed.values.promote !== undefined) throw new UsageError(ARG_MESSAGES.en.givenTwice('--promote'));
  const values = barePromote.bare ? { ...parsed.values, promote: '' } : parsed.values;
  const [app] = positionals;
  if (app === undefined) throw new UsageError(`Name the app: ${APPS}`);
  if (!isAppName(app)) throw new UsageError(`Unknown app "${app}": ${APPS}`);

  const commands = (['list', 'rollback', 'promote', 'status', 'stage', 'canary', 'abort'] as const).filter((name) => values[name] !== undefined);
  if (commands.length > 1) throw new UsageError(`Choose one of ${commands.map((name) => `--${name}`).join(', ')}`);
  const publishes = commands.length === 0 || values.stage || values.canary !== undefined;
  if (!publishes) {
    for (const name of ['dist', 'keep'] as const) {
      if (values[name] !== undefined) throw new UsageError(`--${name} only applies when publishing`);
    }
  }
  if (values.canary === undefined) {
    for (const name of ['id', 'min-views', 'promote-after'] as const) {
      if (values[name] !== undefined) throw new UsageError(`--${name} only applies to --canary`);
    }
  }
  if (!values.status) {
    for (const name of ['since', 'format'] as const) {
      if (values[name] !== undefined) throw new UsageError(`--${name} only applies to --status`);
    }
  }
  if (values.status) {
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json, got "${format}"`);
    const since = values.since === undefined ? new Date(Date.now() - DEFAULT_STATUS_WINDOW_MS) : parseSince(values.since);
    if (!since) throw new UsageError(`--since must be a duration such as 30m, 1h or 2d, or a past moment such as 2026-11-24T09:00Z, got "${values.since}"`);
    return { app, action: { kind: 'status', since, format } };
  }
  if (values.list) return { app, action: { kind: 'list' } };
  if (values.rollback) return { app, action: { kind: 'rollback' } };
  if (values.abort) return { app, action: { kind: 'abort' } };
  if (values.promote !== undefined) return { app, action: { kind: 'promote', id: values.promote || undefined } };
  const keepValue = wholeNumber(values, 'keep', 1);
  if (values.stage) return { app, action: { kind: 'stage', dist: values.dist, keep: keepValue } };
  if (values.canary !== undefined) {
    const share = Number(values.canary.replace(/\s*%$/, ''));
    if (!/^\d+(?:\.\d+)?\s*%?$/.test(values.canary) || !(share > 0 && share <= 100)) {
      throw new UsageError(`--canary must be a percentage of visitors above 0 and up to 100, such as 10 or 12.5, got "${values.canary}"`);
    }
    if (values.dist !== undefined && values.id !== undefined) throw new UsageError('Choose one of --dist, --id');
    return {
      app,
      action: {
        kind: 'canary',
        dist: values.dist,
        id: values.id,
        share,
        minViews: wholeNumber(values, 'min-views', 1) ?? DEFAULT_MIN_VIEWS,
        promoteAfter: wholeNumber(values, 'promote-after', 1) ?? null,
        keep: keepValue,
      },
    };
  }

  return { app, action: { kind: 'publish', dist: values.dist, keep: keepValue } };
}

/** Builds the app's workspace when its dist is missing or older than its sources. */
function buildIfStale(app: AppName): void {
  const script = path.join(REPO_ROOT, 'scripts/build-if-stale.mjs');
  const result = spawnSync(process.execPath, [script, appFolder(app)], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new RefusedError(`The build of ${appFolder(app)} failed; nothing was published.`);
}

/** Runs the command; resolves with the exit code. */
export async function main(argv: readonly string[], env: Record<string, string | undefined> = process.env, given: Io = processIo): Promise<number> {
  const io = terminalIo(given);
  try {
    const { app, action } = parseReleaseArgs(argv);
    const config = loadDeliveryConfig(env);
    const context: ReleaseContext = { ...config, keep: config.releasesKeep, repoRoot: REPO_ROOT };
    if (action.kind === 'status') {
      const db = createDatabase(loadDatabaseConfig(env).databaseUrl);
      let output: string[];
      try {
        // A database the server has not opened yet reports no visits rather than failing.
        await migrateToLatest(db);
        const status = await releaseStatus({ db, releasesDir: config.releasesDir, staticRoot: config.staticRoot }, app, action.since);
        output = action.format === 'json' ? [JSON.stringify(status, null, 2)] : formatReleaseStatus(status);
      } finally {
        await db.destroy();
      }
      output.forEach((line) => io.out(line));
      return 0;
    }
    let result: ReleaseResult;
    if (action.kind === 'list') result = await list(context, app);
    else if (action.kind === 'rollback') result = await rollback(context, app);
    else if (action.kind === 'abort') result = await abort(context, app);
    else if (action.kind === 'promote') result = action.id ? await promote(context, app, action.id) : await promoteCandidate(context, app);
    else if (action.kind === 'canary' && action.id) result = await canary(context, app, action);
    else {
      if (!action.dist) buildIfStale(app);
      // A build made here lands in the repo's dist; --dist (CI artifacts) is relative to where the
      // caller stood (npm run moves to the repo root and keeps that folder in INIT_CWD).
      const dist = action.dist ? path.resolve(env.INIT_CWD ?? process.cwd(), action.dist) : distDir(REPO_ROOT, app);
      if (action.kind === 'canary') result = await canary(context, app, { ...action, dist });
      else if (action.kind === 'stage') {
        const secret = loadPreviewSecret(config.previewSecret, config.releasesDir);
        const site = resolveSiteUrl(env);
        result = await stage(context, app, dist, (release) => previewUrl(site, signPreviewToken({ app, release }, secret)), action.keep ?? context.keep);
      } else result = await publish(context, app, dist, action.keep ?? context.keep);
    }
    formatReleaseResult(result).forEach((line) => io.out(line));
    return 0;
  } catch (error) {
    const usageCode = reportUsage(error, USAGE, io);
    if (usageCode !== undefined) return usageCode;
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
