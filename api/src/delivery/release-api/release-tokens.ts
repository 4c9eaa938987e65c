import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db } from '../../platform/db/connection';
import type { DatabaseSchema } from '../../platform/db/schema';
import { APP_NAMES, isAppName, type AppName } from '../releases/apps';

/**
 * The tokens teams' CI authenticates with to release apps (table release_tokens). Each has a name
 * (what people call it: `blog-ci`) and the apps it may release. The database keeps only the
 * SHA-256 of a token: a copy of the database, a backup or a log of its queries releases nothing.
 * SHA-256 without salt or stretching is enough because a token is 256 random bits, not a password.
 *
 * Names are unique for ever: a revoked token stays listed (who could release what, until when),
 * and its name is not given to another token made with the CLI, so a name in the release log
 * always means one token. Tokens from RELEASE_TOKENS (docker compose) are the exception: their
 * name is the entry's, and a new token in the entry re-issues it (see provisionReleaseTokens).
 */

/** A refusal worth telling the operator as it is: bad name, unknown app, name taken, … */
export class ReleaseTokenError extends Error {}

export interface ReleaseTokenInfo {
  name: string;
  apps: AppName[];
  /** ISO 8601. */
  createdAt: string;
  revokedAt?: string;
  /** When a request last authenticated with it, to the minute. */
  lastUsedAt?: string;
}

/** Who a request authenticated as: the token's name and the apps it may release. */
export interface ReleaseTokenIdentity {
  name: string;
  apps: AppName[];
}

const NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

/**
 * Made tokens read `rt_<name>_<43 characters>`: 32 random bytes in base64url after a prefix a
 * secret scanner can match (`rt_[a-z0-9][a-z0-9-]{0,62}_[A-Za-z0-9_-]{43}`), and the name, so
 * whoever finds a leaked token knows which one to revoke. The name cannot hold `_`, so the first
 * `_` after the prefix ends it.
 */
const MADE_TOKEN_PREFIX = 'rt_';

/**
 * What any token, made or provisioned, may be: characters a header and a URL carry as they are,
 * and a bounded length. Anything else is refused before the database is asked.
 */
const WELL_FORMED_TOKEN = /^[A-Za-z0-9._~-]{5,256}$/;

/** Provisioned tokens other than development ones are secrets, so at least this long. */
const MIN_SECRET_LENGTH = 32;

/** RELEASE_TOKENS entries whose token starts so are for a laptop: only a local site accepts them. */
const DEV_TOKEN_PREFIX = 'dev-';

/** last_used_at is written at most this often per token, so a busy CI does not write on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Throws ReleaseTokenError unless `name` can name a token. */
export function checkTokenName(name: string): void {
  if (!NAME.test(name)) {
    throw new ReleaseTokenError(
      `Token name "${name}" is not valid: use 1 to 63 lowercase letters, digits and hyphens, starting with a letter or digit (e.g. blog-ci)`,
    );
  }
}

/** The apps a token may release, without repeats; throws ReleaseTokenError for none or an unknown one. */
export function checkTokenApps(apps: readonly string[]): AppName[] {
  if (apps.length === 0) throw new ReleaseTokenError(`Name the apps the token may release: ${APP_NAMES.join(', ')}`);
  for (const app of apps) {
    if (!isAppName(app)) throw new ReleaseTokenError(`Unknown app "${app}": the apps are ${APP_NAMES.join(', ')}`);
  }
  return [...new Set(apps)];
}

/** Whether the site is reached on this machine only, where development tokens are harmless. */
export function isLocalSite(siteUrl: string): boolean {
  let host: string;
  try {
    host = new URL(siteUrl).hostname;
  } catch {
    return false;
  }
  return LOCAL_HOSTS.has(host);
}

/** Whether a token is a development one (`dev-…`): for a site to refuse when it is not local. */
export function isDevToken(token: string): boolean {
  return token.startsWith(DEV_TOKEN_PREFIX);
}

const toIso = (now: Date) => now.toISOString();

/**
 * Makes a token for CI that may release `apps` and returns it: the only time it exists outside
 * the caller, since only its hash is stored.
 */
export async function createReleaseToken(db: Db, { name, apps, now = new Date() }: { name: string; apps: readonly string[]; now?: Date }): Promise<string> {
  checkTokenName(name);
  const allowed = checkTokenApps(apps);
  const token = `${MADE_TOKEN_PREFIX}${name}_${randomBytes(32).toString('base64url')}`;
  // One statement: of two people creating one name at once, one gets it and the other is told.
  const inserted = await db.kysely
    .insertInto('release_tokens')
    .values({ name, token_hash: hashToken(token), apps: JSON.stringify(allowed), created_at: toIso(now) })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .returning('name')
    .executeTakeFirst();
  if (!inserted) {
    const existing = await db.kysely.selectFrom('release_tokens').select('revoked_at').where('name', '=', name).executeTakeFirst();
    throw new ReleaseTokenError(
      existing?.revoked_at
        ? `A token named "${name}" was revoked; names are not reused, so choose another name`
        : `A token named "${name}" already exists; revoke it first to replace it, or choose another name`,
    );
  }
  return token;
}

/** Every token, revoked ones included, by name. */
export async function listReleaseTokens(db: Db): Promise<ReleaseTokenInfo[]> {
  const rows = await db.kysely
    .selectFrom('release_tokens')
    .select(['name', 'apps', 'created_at', 'revoked_at', 'last_used_at'])
    .orderBy('name')
    .execute();
  return rows.map((row) => ({
    name: row.name,
    apps: db.dialect.readStringArray(row.apps),
    createdAt: row.created_at,
    ...(row.revoked_at ? { revokedAt: row.revoked_at } : {}),
    ...(row.last_used_at ? { lastUsedAt: row.last_used_at } : {}),
  }));
}

/** Stops accepting the token at once; it stays listed as revoked. */
export async function revokeReleaseToken(db: Db, name: string, now = new Date()): Promise<void> {
  const revoked = await db.kysely
    .updateTable('release_tokens')
    .set({ revoked_at: toIso(now) })
    .where('name', '=', name)
    .where('revoked_at', 'is', null)
    .returning('name')
    .executeTakeFirst();
  if (revoked) return;
  const existing = await db.kysely.selectFrom('release_tokens').select('revoked_at').where('name', '=', name).executeTakeFirst();
  if (existing?.revoked_at) throw new ReleaseTokenError(`The token "${name}" was already revoked at ${existing.revoked_at}`);
  throw new ReleaseTokenError(`No token is named "${name}"`);
}

/**
 * Who the token belongs to, or undefined when it is malformed, unknown or revoked (the caller
 * answers all three alike). The lookup is by hash, so its timing says nothing about the token.
 */
export async function verifyReleaseToken(db: Db, token: string, now = new Date()): Promise<ReleaseTokenIdentity | undefined> {
  if (typeof token !== 'string' || !WELL_FORMED_TOKEN.test(token)) return undefined;
  const tokenHash = hashToken(token);
  const row = await db.kysely
    .selectFrom('release_tokens')
    .select(['name', 'apps'])
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  // ISO 8601 strings in UTC compare as their moments do.
  const staleBefore = toIso(new Date(now.getTime() - LAST_USED_RESOLUTION_MS));
  await db.kysely
    .updateTable('release_tokens')
    .set({ last_used_at: toIso(now) })
    .where('token_hash', '=', tokenHash)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
    .execute();
  return { name: row.name, apps: db.dialect.readStringArray(row.apps) };
}

// ---- RELEASE_TOKENS: tokens docker compose provisions from the environment ----

/** One RELEASE_TOKENS entry: `name=app1,app2:token`. */
export interface ProvisionedTokenEntry {
  name: string;
  apps: AppName[];
  token: string;
}

const SPEC_VARIABLE = 'RELEASE_TOKENS';
const ENTRY_FORMAT = 'name=app1,app2:token';

/** An entry as an error may show it: never its token, which may be a production secret. */
function describeEntry(entry: string, index: number): string {
  const colon = entry.indexOf(':');
  const equals = entry.indexOf('=');
  const visible = colon >= 0 ? `${entry.slice(0, colon)}:…` : equals >= 0 ? `${entry.slice(0, equals)}=…` : '…';
  return `${SPEC_VARIABLE} entry ${index + 1} ("${visible}")`;
}

function parseEntry(entry: string, index: number): ProvisionedTokenEntry {
  const what = describeEntry(entry, index);
  const equals = entry.indexOf('=');
  const colon = entry.indexOf(':', equals + 1);
  if (equals < 0 || colon < 0) throw new ReleaseTokenError(`${what} is not ${ENTRY_FORMAT}`);
  const name = entry.slice(0, equals);
  const appList = entry.slice(equals + 1, colon);
  const token = entry.slice(colon + 1);
  const withWhat = (error: unknown) => (error instanceof ReleaseTokenError ? new ReleaseTokenError(`${what}: ${error.message}`) : error);
  let apps: AppName[];
  try {
    checkTokenName(name);
    apps = checkTokenApps(appList === '' ? [] : appList.split(','));
  } catch (error) {
    throw withWhat(error);
  }
  if (!WELL_FORMED_TOKEN.test(token)) {
    throw new ReleaseTokenError(`${what}: the token must be 5 to 256 letters, digits and . _ ~ - (no spaces, no colons)`);
  }
  if (!isDevToken(token) && token.length < MIN_SECRET_LENGTH) {
    throw new ReleaseTokenError(
      `${what}: the token is too short to be a secret: use at least ${MIN_SECRET_LENGTH} characters (e.g. openssl rand -hex 32), or start it with ${DEV_TOKEN_PREFIX} for a laptop`,
    );
  }
  return { name, apps, token };
}

/**
 * The entries of a RELEASE_TOKENS value: whitespace-separated `name=app1,app2:token`. Throws
 * ReleaseTokenError naming the first bad entry (by position and name, never showing its token),
 * and for a name or a token given twice.
 */
export function parseReleaseTokensSpec(spec: string): ProvisionedTokenEntry[] {
  const entries = spec.split(/\s+/).filter(Boolean).map(parseEntry);
  const names = new Set<string>();
  const tokens = new Map<string, string>();
  for (const entry of entries) {
    if (names.has(entry.name)) throw new ReleaseTokenError(`${SPEC_VARIABLE} names "${entry.name}" twice`);
    names.add(entry.name);
    const sharing = tokens.get(entry.token);
    if (sharing) throw new ReleaseTokenError(`${SPEC_VARIABLE} gives "${sharing}" and "${entry.name}" the same token; give each its own`);
    tokens.set(entry.token, entry.name);
  }
  return entries;
}

export interface ProvisionOutcome {
  /** Entries whose token is now accepted. */
  accepted: string[];
  /**
   * Entries whose token was revoked (npm run release -- tokens revoke) and is still the one in
   * RELEASE_TOKENS: it stays revoked, so a restart does not bring back a leaked token. The caller
   * should warn: the entry needs a new token.
   */
  stillRevoked: string[];
}

/** Writes one entry, in the provisioning transaction. */
async function provisionEntry(kysely: Kysely<DatabaseSchema>, entry: ProvisionedTokenEntry, now: string): Promise<'accepted' | 'stillRevoked'> {
  const tokenHash = hashToken(entry.token);
  const holder = await kysely.selectFrom('release_tokens').select('name').where('token_hash', '=', tokenHash).executeTakeFirst();
  if (holder && holder.name !== entry.name) {
    // Hashes are unique, revoked ones included: a token names one token for ever.
    throw new ReleaseTokenError(`${SPEC_VARIABLE}: the token of "${entry.name}" is already the token of "${holder.name}"; give "${entry.name}" a new token`);
  }
  const apps = JSON.stringify(entry.apps);
  const existing = await kysely.selectFrom('release_tokens').select(['token_hash', 'revoked_at']).where('name', '=', entry.name).executeTakeFirst();
  if (!existing) {
    await kysely.insertInto('release_tokens').values({ name: entry.name, token_hash: tokenHash, apps, created_at: now }).execute();
    return 'accepted';
  }
  if (existing.revoked_at && existing.token_hash === tokenHash) return 'stillRevoked';
  // A new token in the entry re-issues the name, revoked or not (the entry is what the operator means).
  await kysely.updateTable('release_tokens').set({ token_hash: tokenHash, apps, revoked_at: null }).where('name', '=', entry.name).execute();
  return 'accepted';
}

/**
 * Makes the tokens of RELEASE_TOKENS (docker compose) accepted, each upserted by name: its hash
 * and apps are set and a revocation of an earlier token of that name is lifted. Tokens of other
 * names (made with the CLI, or dropped from the variable) are left as they are: to stop one,
 * revoke it. Development tokens (`dev-…`, what docker-compose.yml defaults to without a .env) are
 * refused unless `siteUrl` is on this machine, so a production site never accepts one. Every
 * entry is checked before any is written, and all are written in one transaction.
 */
export async function provisionReleaseTokens(db: Db, spec: string, siteUrl: string, now = new Date()): Promise<ProvisionOutcome> {
  const entries = parseReleaseTokensSpec(spec);
  const dev = entries.find((entry) => isDevToken(entry.token));
  if (dev && !isLocalSite(siteUrl)) {
    throw new ReleaseTokenError(
      `${SPEC_VARIABLE} gives "${dev.name}" a development token (${DEV_TOKEN_PREFIX}…), which only a site on localhost accepts, but SITE_URL is ${siteUrl}: set ${SPEC_VARIABLE} to real tokens (e.g. openssl rand -hex 32)`,
    );
  }
  const outcome: ProvisionOutcome = { accepted: [], stillRevoked: [] };
  if (entries.length === 0) return outcome;
  // The write lock: API replicas starting together provision one after the other.
  await db.dialect.withWriteLock(db.kysely, async (kysely) => {
    for (const entry of entries) outcome[await provisionEntry(kysely, entry, toIso(now))].push(entry.name);
  });
  return outcome;
}
