import type { Selectable } from 'kysely';
import type { Db } from '../../platform/db/connection';
import type { ReleasesTable } from '../../platform/db/schema';
import { APP_NAMES, type AppName } from './apps';
import { EVENTS_KEPT, isCandidate, isDeliveryAction, type Candidate, type DeliveryEvent, type ReleaseState } from './state';

/** A stored release of an app, as the database records it; its files are in the artifact store. */
export interface ReleaseRecord {
  id: string;
  app: AppName;
  /** The app's package.json version. */
  version: string;
  /** Git short revision, with `-dirty` when the working tree had changes. */
  revision: string;
  /** ISO time the build was made. */
  builtAt: string;
  /** ISO time the release was published. */
  publishedAt: string;
  /** Who published it (see DeliveryEvent.actor). */
  publishedBy: string;
  /** SHA-256 of its file names and contents: the same build always has the same digest. */
  digest: string;
  fileCount: number;
  totalBytes: number;
  /** ISO time it stopped being current; undefined while current or never current. */
  currentUntil?: string;
}

/** A release with its files on this machine (the artifact store's folder, or the local cache). */
export interface ReleaseInfo extends ReleaseRecord {
  dir: string;
}

/** What is published for one app: its kept releases and which one is current. */
export interface AppReleases<R extends ReleaseRecord = ReleaseRecord> {
  /** Kept releases, newest published first. */
  releases: R[];
  /** Ids made current, oldest first. */
  history: string[];
  current: R | undefined;
  /** The release a rollback returns to. */
  previous: R | undefined;
  /** The canary's candidate, when one runs and its release is kept. */
  candidate: (Candidate & { release: R }) | undefined;
  /** Decisions made about the app's releases, oldest first. */
  events: DeliveryEvent[];
  /** The state as read: what a change starts from (its revision included). */
  state: ReleaseState;
}

/**
 * Whether a text can be a release id. Ids never contain path separators or start with a dot, so an
 * id taken from a URL can be joined to a path or an object key safely.
 */
export function isReleaseId(name: string): boolean {
  return /^[0-9A-Za-z][0-9A-Za-z.+_-]*$/.test(name);
}

const NO_STATE: ReleaseState = { history: [], events: [], revision: 0 };

/** The counter every change of any app's releases moves: servers poll it. */
export async function readReleasesRevision(db: Db): Promise<number> {
  const row = await db.kysely.selectFrom('release_revision').select('revision').where('id', '=', 1).executeTakeFirst();
  return Number(row?.revision ?? 0);
}

/** The current release: the last id of `history` that is still kept. */
export function currentOf(history: readonly string[], kept: ReadonlySet<string>): string | undefined {
  return history.filter((id) => kept.has(id)).at(-1);
}

/** The last history entry that still exists is current; the one before it is the previous one. */
function resolveAppReleases<R extends ReleaseRecord>(state: ReleaseState, releases: R[]): AppReleases<R> {
  const byId = new Map(releases.map((release) => [release.id, release]));
  const existing = state.history.filter((id) => byId.has(id));
  const current = byId.get(existing.at(-1) ?? '');
  const previous = byId.get(existing.at(-2) ?? '');
  const candidateRelease = state.candidate && state.candidate.id !== current?.id ? byId.get(state.candidate.id) : undefined;
  const candidate = state.candidate && candidateRelease ? { ...state.candidate, release: candidateRelease } : undefined;
  return { releases, history: state.history, current, previous, candidate, events: state.events, state };
}

/** The same app releases with each release given its local folder. */
export function withFolders(app: AppReleases, dirOf: (release: ReleaseRecord) => string): AppReleases<ReleaseInfo> {
  const releases = app.releases.map((release) => ({ ...release, dir: dirOf(release) }));
  return resolveAppReleases(app.state, releases);
}

function parseJson(text: string | null, what: string): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`The release state's ${what} is not JSON: ${text.slice(0, 80)}`);
  }
}

function toRecord(release: Selectable<ReleasesTable>): ReleaseRecord {
  return {
    id: release.id,
    app: release.app,
    version: release.version,
    revision: release.revision,
    builtAt: release.built_at,
    publishedAt: release.published_at,
    publishedBy: release.published_by,
    digest: release.digest,
    fileCount: release.file_count,
    totalBytes: Number(release.total_bytes),
    ...(release.current_until !== null && { currentUntil: release.current_until }),
  };
}

/** The app's stored release with this id, or the one holding the build of this digest; undefined when none. */
export async function findStoredRelease(db: Db, app: AppName, by: { id: string } | { digest: string }): Promise<ReleaseRecord | undefined> {
  const query = db.kysely.selectFrom('releases').selectAll().where('app', '=', app).where('status', '=', 'stored');
  const row = await ('id' in by ? query.where('id', '=', by.id) : query.where('digest', '=', by.digest)).executeTakeFirst();
  return row && toRecord(row);
}

/**
 * Whether any decision ever named this release (published, staged, canary, promoted, rolled back,
 * aborted). A stored release none did is what a change refused midway left (the files stored, then
 * a concurrent change of another app won): nobody chose it yet.
 */
export async function wasDecided(db: Db, app: AppName, id: string): Promise<boolean> {
  const row = await db.kysely.selectFrom('release_events').select('seq').where('app', '=', app).where('release', '=', id).limit(1).executeTakeFirst();
  return row !== undefined;
}

async function readApps(db: Db, apps: readonly AppName[]): Promise<Map<AppName, AppReleases>> {
  const [stateRows, releaseRows, eventRowsByApp] = await Promise.all([
    db.kysely.selectFrom('release_apps').selectAll().where('app', 'in', apps).execute(),
    db.kysely.selectFrom('releases').selectAll().where('app', 'in', apps).where('status', '=', 'stored').execute(),
    // The newest EVENTS_KEPT of each app, one query per app (apps are few): a busy app's events
    // never crowd out a quiet one's.
    Promise.all(apps.map((app) => db.kysely.selectFrom('release_events').selectAll().where('app', '=', app).orderBy('seq', 'desc').limit(EVENTS_KEPT).execute())),
  ]);
  const result = new Map<AppName, AppReleases>();
  for (const [index, app] of apps.entries()) {
    const row = stateRows.find((candidate) => candidate.app === app);
    const history = parseJson(row?.history ?? null, `history of ${app}`);
    const candidate = parseJson(row?.candidate ?? null, `candidate of ${app}`);
    const events = eventRowsByApp[index]!
      .filter((event) => isDeliveryAction(event.action))
      .reverse()
      .map((event): DeliveryEvent => ({ at: event.at, release: event.release, action: event.action as DeliveryEvent['action'], reason: event.reason, actor: event.actor }));
    const state: ReleaseState = row
      ? {
          history: Array.isArray(history) ? history.filter((id): id is string => typeof id === 'string') : [],
          ...(isCandidate(candidate) && { candidate }),
          events,
          revision: Number(row.revision),
        }
      : { ...NO_STATE, events };
    const releases = releaseRows
      .filter((release) => release.app === app)
      .map(toRecord)
      .sort((a, b) => b.publishedAt.localeCompare(a.publishedAt) || b.id.localeCompare(a.id));
    result.set(app, resolveAppReleases(state, releases));
  }
  return result;
}

/**
 * The apps' releases as of one revision: the tables are read between two reads of the revision,
 * again if a change landed in between, so no half-applied view of a change is ever returned.
 */
export async function loadReleases(db: Db, apps: readonly AppName[] = APP_NAMES): Promise<{ revision: number; apps: Map<AppName, AppReleases> }> {
  for (let attempt = 1; ; attempt += 1) {
    const before = await readReleasesRevision(db);
    const loaded = await readApps(db, apps);
    const after = await readReleasesRevision(db);
    // Changes are rare and short: a few attempts always find a quiet moment; the last read stands.
    if (before === after || attempt >= 5) return { revision: after, apps: loaded };
  }
}

export async function loadAppReleases(db: Db, app: AppName): Promise<AppReleases> {
  return (await loadReleases(db, [app])).apps.get(app)!;
}
