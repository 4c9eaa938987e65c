import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { loadDatabaseConfig, loadDeliveryConfig, REPO_ROOT, resolveSiteUrl } from '../../platform/config';
import { APP_NAMES, appFolder, type AppName, distDir, isAppName } from '../releases/apps';
import { readBuildFolder } from '../releases/build-folder';
import { abort, canary, DEFAULT_MIN_VIEWS, list, promote, promoteCandidate, publish, type ListResult, type ReleaseContext, type ReleaseResult, rollback, stage } from '../releases/commands';
import { RefusedError } from '../releases/refused-error';
import { loadAppReleases, withFolders } from '../releases/release-repository';
import { openReleaseStorage } from '../releases/release-storage';
import { DEFAULT_STATUS_WINDOW_MS, parseSince, releaseStatus, type ReleaseStatus } from '../status/release-status';
import { loadPreviewSecret, previewUrl, signPreviewToken } from '../visitor/preview-token';
import { createDatabase, type Database } from '../../platform/db/connection';
import { migrateToLatest } from '../../platform/db/migrate';
import { callReleaseApi, ReleaseApiError, type RemoteCommand } from './release-client';
import { formatReleaseStatus } from './release-status-text';
import { formatReleaseResult } from './release-text';
import { runReleaseTokens } from './release-tokens';
import { ARG_MESSAGES, parseCliArgs, processIo, reportUsage, terminalIo, UsageError, type Io, type ParsedValues } from '../../platform/cli/parse-cli-args';

/**
 * Immutable releases with instant rollback and progressive delivery (see docs/operations.md, "Releases"):
 *   npm run release -- <app>                 build if stale, publish, make current
 * and --stage, --canary, --abort, --list, --rollback, --promote [<id>], --status, --help.
 * Exit codes: 0 done (or help shown), 1 refused or failed, 2 bad usage.
 */

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
  '       npm run release -- tokens create|list|revoke …   the tokens teams\' CI releases with (tokens --help)',
  '       npm run release -- --help                  print this help',
  'From any machine, through the site\'s release API: add --site <url> --token <token> (or set RELEASE_SITE and',
  '  RELEASE_TOKEN); the same commands, the same output, for the apps the token names.',
  'On the server: DATABASE_URL (the releases\' state), RELEASE_STORE (their files, default file:data/release-store),',
  '  RELEASES_KEEP (default 5), STATIC_ROOT, SITE_URL and RELEASE_PREVIEW_SECRET (--stage: the preview link).',
].join('\n');

type Action =
  | { kind: 'publish'; dist?: string; keep?: number }
  | { kind: 'stage'; dist?: string; keep?: number }
  | Omit<Extract<RemoteCommand, { kind: 'canary' }>, 'expect'>
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
  site: { type: 'string' },
  token: { type: 'string' },
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

/** Where the commands run: here, on the database and store of this server, or on a site's release API. */
export type Target = { kind: 'local' } | { kind: 'remote'; site: string; token: string };

/** `--site`/`--token`, else RELEASE_SITE/RELEASE_TOKEN: both or neither. */
function targetOf(values: { site?: string; token?: string }, env: Record<string, string | undefined>): Target {
  const site = values.site ?? (env.RELEASE_SITE?.trim() || undefined);
  const token = values.token ?? (env.RELEASE_TOKEN?.trim() || undefined);
  if (!site && !token) return { kind: 'local' };
  if (!site) throw new UsageError('--token needs --site <url> (or RELEASE_SITE): the site whose release API to call');
  if (!token) throw new UsageError('--site needs --token <token> (or RELEASE_TOKEN): a release token of the team');
  if (!/^https?:\/\//i.test(site) || !URL.canParse(site)) throw new UsageError(`--site must be the site's http(s) URL, got "${site}"`);
  return { kind: 'remote', site, token };
}

export function parseReleaseArgs(argv: readonly string[], env: Record<string, string | undefined> = {}): { app: AppName; action: Action; target: Target } {
  const barePromote = takeBarePromote(argv);
  const parsed = parseCliArgs(barePromote.args, OPTIONS, ARG_MESSAGES.en, 1);
  const { positionals } = parsed;
  if (barePromote.bare && parsed.values.promote !== undefined) throw new UsageError(ARG_MESSAGES.en.givenTwice('--promote'));
  const values = barePromote.bare ? { ...parsed.values, promote: '' } : parsed.values;
  const [app] = positionals;
  if (app === undefined) throw new UsageError(`Name the app: ${APPS}`);
  if (!isAppName(app)) throw new UsageError(`Unknown app "${app}": ${APPS}`);
  const target = targetOf(values, env);
  return { app, target, action: parseAction(values) };
}

type ParsedReleaseValues = ParsedValues<typeof OPTIONS>;

function parseAction(values: ParsedReleaseValues): Action {
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
    return { kind: 'status', since, format };
  }
  if (values.list) return { kind: 'list' };
  if (values.rollback) return { kind: 'rollback' };
  if (values.abort) return { kind: 'abort' };
  if (values.promote !== undefined) return { kind: 'promote', id: values.promote || undefined };
  const keepValue = wholeNumber(values, 'keep', 1);
  if (values.stage) return { kind: 'stage', dist: values.dist, keep: keepValue };
  if (values.canary !== undefined) {
    const share = Number(values.canary.replace(/\s*%$/, ''));
    if (!/^\d+(?:\.\d+)?\s*%?$/.test(values.canary) || !(share > 0 && share <= 100)) {
      throw new UsageError(`--canary must be a percentage of visitors above 0 and up to 100, such as 10 or 12.5, got "${values.canary}"`);
    }
    if (values.dist !== undefined && values.id !== undefined) throw new UsageError('Choose one of --dist, --id');
    return {
      kind: 'canary',
      dist: values.dist,
      id: values.id,
      share,
      minViews: wholeNumber(values, 'min-views', 1) ?? DEFAULT_MIN_VIEWS,
      promoteAfter: wholeNumber(values, 'promote-after', 1) ?? null,
      keep: keepValue,
    };
  }

  return { kind: 'publish', dist: values.dist, keep: keepValue };
}

/** Builds the app's workspace when its dist is missing or older than its sources. */
function buildIfStale(app: AppName): void {
  const script = path.join(REPO_ROOT, 'scripts/build-if-stale.mjs');
  const result = spawnSync(process.execPath, [script, appFolder(app)], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new RefusedError(`The build of ${appFolder(app)} failed; nothing was published.`);
}

/** Who runs a command on the server, as the releases' record names them. */
function cliActor(): string {
  return `cli:${os.userInfo().username}@${os.hostname()}`;
}

/** The build a publishing command takes: --dist (CI artifacts), else the checkout's, built first if stale. */
function buildFolder(app: AppName, dist: string | undefined, env: Record<string, string | undefined>): string {
  if (!dist) buildIfStale(app);
  // --dist is relative to where the caller stood (npm run moves to the repo root and keeps that
  // folder in INIT_CWD); a build made here lands in the repo's dist.
  return dist ? path.resolve(env.INIT_CWD ?? process.cwd(), dist) : distDir(REPO_ROOT, app);
}

/** Whether an action changes the app's releases (and so names the state it acts on). */
const changes = (action: Action) => action.kind !== 'list' && action.kind !== 'status';

/** The command, run here on the server's database and release store. */
async function runLocal(db: Database, app: AppName, action: Action, env: Record<string, string | undefined>): Promise<ReleaseResult | ReleaseStatus> {
  const config = loadDeliveryConfig(env);
  const { store, cache } = openReleaseStorage(config);
  const base: ReleaseContext = { db, store, staticRoot: config.staticRoot, remoteUrls: config.remoteUrls, keep: config.releasesKeep, repoRoot: REPO_ROOT, actor: cliActor() };
  // As through the release API: a change acts on the state read first, or is refused with what changed.
  const context: ReleaseContext = changes(action) ? { ...base, expect: { revision: (await list(base, app)).revision } } : base;
  switch (action.kind) {
    case 'status': {
      const releasesOf = async (name: AppName) => {
        const releases = await loadAppReleases(db, name);
        const dirs = new Map(await Promise.all(releases.releases.map(async (release) => [release.id, await cache.localDir(name, release.id)] as const)));
        return withFolders(releases, (release) => dirs.get(release.id)!);
      };
      return releaseStatus({ db, staticRoot: config.staticRoot, releasesOf }, app, action.since);
    }
    case 'list':
      return list(context, app);
    case 'rollback':
      return rollback(context, app);
    case 'abort':
      return abort(context, app);
    case 'promote':
      return action.id ? promote(context, app, action.id) : promoteCandidate(context, app);
    case 'canary':
      if (action.id) return canary(context, app, action);
      return canary(context, app, { ...action, build: await readBuildFolder(buildFolder(app, action.dist, env)) });
    case 'stage': {
      const build = await readBuildFolder(buildFolder(app, action.dist, env));
      const secret = await loadPreviewSecret(config.previewSecret, db);
      const site = resolveSiteUrl(env);
      return stage(context, app, build, (release) => previewUrl(site, signPreviewToken({ app, release }, secret)), action.keep ?? context.keep);
    }
    case 'publish':
      return publish(context, app, await readBuildFolder(buildFolder(app, action.dist, env)), action.keep ?? context.keep);
  }
}

/** The same command, through the site's release API with a team's token. */
async function runRemote(site: string, token: string, app: AppName, action: Action, env: Record<string, string | undefined>): Promise<ReleaseResult | ReleaseStatus> {
  if (action.kind === 'list' || action.kind === 'status') return callReleaseApi(site, token, app, action);
  // The build first (it may take a while), then the state it acts on, read just before the change.
  const dist = action.kind === 'publish' || action.kind === 'stage' || (action.kind === 'canary' && !action.id) ? buildFolder(app, action.dist, env) : undefined;
  const listed = (await callReleaseApi(site, token, app, { kind: 'list' })) as ListResult;
  const expect = { revision: listed.revision };
  let command: RemoteCommand;
  if (action.kind === 'publish' || action.kind === 'stage') command = { ...action, dist: dist!, expect };
  else if (action.kind === 'canary') command = { ...action, dist, expect };
  else command = { ...action, expect };
  return callReleaseApi(site, token, app, command);
}

/** Opens the server's database (migrated: a site not started yet has no tables) for `work`. */
async function withDatabase<T>(env: Record<string, string | undefined>, work: (db: Database) => Promise<T>): Promise<T> {
  const db = createDatabase(loadDatabaseConfig(env).databaseUrl);
  try {
    await migrateToLatest(db);
    return await work(db);
  } finally {
    await db.destroy();
  }
}

/** Runs the command; resolves with the exit code. */
export async function main(argv: readonly string[], env: Record<string, string | undefined> = process.env, given: Io = processIo): Promise<number> {
  const io = terminalIo(given);
  if (argv[0] === 'tokens') {
    try {
      return await withDatabase(env, (db) => runReleaseTokens(argv.slice(1), db, io));
    } catch (error) {
      // runReleaseTokens reports its own usage errors and refusals: what is left is the database's.
      io.err(`Release tokens failed: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    }
  }
  try {
    const { app, action, target } = parseReleaseArgs(argv, env);
    const result =
      target.kind === 'remote' ? await runRemote(target.site, target.token, app, action, env) : await withDatabase(env, (db) => runLocal(db, app, action, env));
    if (action.kind === 'status') {
      const status = result as ReleaseStatus;
      (action.format === 'json' ? [JSON.stringify(status, null, 2)] : formatReleaseStatus(status)).forEach((line) => io.out(line));
    } else formatReleaseResult(result as ReleaseResult).forEach((line) => io.out(line));
    return 0;
  } catch (error) {
    const usageCode = reportUsage(error, USAGE, io);
    if (usageCode !== undefined) return usageCode;
    const known = error instanceof RefusedError || error instanceof ReleaseApiError;
    io.err(known ? (error as Error).message : `Release failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
