import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../platform/db/connection';
import type { ObjectStore } from '../../platform/object-store/object-store';
import { storeReleaseFiles } from '../artifacts/release-files';
import { SiteLease } from '../../platform/scheduling/site-lease';
import { APP_NAMES, type AppName } from './apps';
import { readBuildFolder } from './build-folder';
import { moveReleasesRevision } from './release-change';
import { isReleaseId } from './release-repository';
import { isCandidate, isDeliveryAction, type Candidate, type DeliveryEvent } from './state';

/** Written into every release folder of a RELEASES_DIR by the release command before releases moved to the database. */
const RELEASE_FILE = 'release.json';
const STATE_FILE = 'state.json';
/** Who the imported releases and decisions are recorded as published by. */
export const IMPORT_ACTOR = 'import';
/** Long enough for any import; a process that dies importing is replaced once it lapses. */
const IMPORT_LEASE_MS = 10 * 60_000;

interface FolderRelease {
  id: string;
  version: string;
  revision: string;
  builtAt: string;
  publishedAt: string;
  dir: string;
}

interface FolderState {
  history: string[];
  candidate?: Candidate;
  events: Omit<DeliveryEvent, 'actor'>[];
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

async function folderReleases(appDir: string): Promise<FolderRelease[]> {
  const releases: FolderRelease[] = [];
  for (const id of (await fs.readdir(appDir).catch(() => [] as string[])).filter(isReleaseId)) {
    const metadata = (await readJson(path.join(appDir, id, RELEASE_FILE))) as Partial<FolderRelease> | undefined;
    // No release.json: a copy a crashed command left, never a release.
    if (metadata?.id !== id || !metadata.version || !metadata.revision || !metadata.builtAt || !metadata.publishedAt) continue;
    releases.push({ id, version: metadata.version, revision: metadata.revision, builtAt: metadata.builtAt, publishedAt: metadata.publishedAt, dir: path.join(appDir, id) });
  }
  return releases;
}

async function folderState(appDir: string): Promise<FolderState> {
  const parsed = (await readJson(path.join(appDir, STATE_FILE))) as Partial<FolderState> | undefined;
  const history = Array.isArray(parsed?.history) ? parsed.history.filter((id): id is string => typeof id === 'string') : [];
  const events = Array.isArray(parsed?.events)
    ? parsed.events.filter((event) => typeof event?.at === 'string' && typeof event.release === 'string' && typeof event.reason === 'string' && isDeliveryAction(event.action))
    : [];
  return { history, events, ...(isCandidate(parsed?.candidate) && { candidate: parsed.candidate }) };
}

/** Stores one folder release under its own id, unless an earlier (interrupted) import stored it already. */
async function importRelease(db: Database, store: ObjectStore, app: AppName, release: FolderRelease): Promise<void> {
  const existing = await db.kysely.selectFrom('releases').select('status').where('app', '=', app).where('id', '=', release.id).executeTakeFirst();
  if (existing?.status === 'stored') return;
  // The import lease makes this process the only one writing these ids: what an interrupted
  // import left under one is its own, and goes.
  await store.deletePrefix(`${app}/${release.id}/`);
  const files = new Map((await readBuildFolder(release.dir)).files);
  files.delete(RELEASE_FILE);
  const stored = await storeReleaseFiles(store, app, release.id, files);
  const row = {
    status: 'stored' as const,
    version: release.version,
    revision: release.revision,
    built_at: release.builtAt,
    published_at: release.publishedAt,
    digest: stored.digest,
    file_count: stored.fileCount,
    total_bytes: stored.totalBytes,
    published_by: IMPORT_ACTOR,
  };
  await db.kysely
    .insertInto('releases')
    .values({ app, id: release.id, ...row })
    .onConflict((conflict) => conflict.columns(['app', 'id']).doUpdateSet(row))
    .execute();
}

/**
 * Imports a RELEASES_DIR (the folder releases lived in before the database held them) once: every
 * release's files into the artifact store under its own id, each app's history, candidate and
 * decisions into the database. One process imports (a lease); the import counts as done only when
 * the state is written, so an interrupted import is run again by the next start. A site whose
 * database has releases of its own already is never overwritten: the folder is then left alone.
 * Returns the number of releases imported, or undefined when there was nothing to do.
 */
export async function importReleasesDir(db: Database, store: ObjectStore, releasesDir: string, log: Pick<FastifyBaseLogger, 'info' | 'warn'>): Promise<number | undefined> {
  const marker = await db.kysely.selectFrom('release_revision').select('imported_at').where('id', '=', 1).executeTakeFirst();
  if (marker?.imported_at) return undefined;
  const found = new Map<AppName, FolderRelease[]>();
  for (const app of APP_NAMES) {
    const releases = await folderReleases(path.join(releasesDir, app));
    if (releases.length > 0) found.set(app, releases);
  }
  if (found.size === 0) return undefined;
  const lease = new SiteLease(db, 'releases-import', IMPORT_LEASE_MS);
  if (!(await lease.acquire())) return undefined;
  try {
    const owned = await db.kysely.selectFrom('release_apps').select('app').limit(1).execute();
    let count = 0;
    if (owned.length === 0) {
      for (const [app, releases] of found) {
        for (const release of releases) await importRelease(db, store, app, release);
        count += releases.length;
      }
    } else {
      log.warn({ releasesDir }, 'the database has releases of its own already: RELEASES_DIR is not imported');
    }
    const at = new Date().toISOString();
    await db.dialect.withWriteLock(db.kysely, async (kysely) => {
      if (owned.length === 0) {
        for (const app of found.keys()) {
          const state = await folderState(path.join(releasesDir, app));
          await kysely
            .insertInto('release_apps')
            .values({ app, history: JSON.stringify(state.history), candidate: state.candidate ? JSON.stringify(state.candidate) : null, revision: 1 })
            .execute();
          for (const event of state.events) {
            await kysely.insertInto('release_events').values({ app, ...event, actor: IMPORT_ACTOR, revision: 1 }).execute();
          }
          // The current release of the folder is current here; the others stopped being current at the import.
          const current = state.history.at(-1);
          await kysely.updateTable('releases').set({ current_until: at }).where('app', '=', app).where('id', '!=', current ?? '').execute();
        }
      }
      await kysely.updateTable('release_revision').set({ imported_at: at }).where('id', '=', 1).execute();
      await moveReleasesRevision({ kysely, dialect: db.dialect });
    });
    if (count > 0) log.info({ releasesDir, releases: count, store: store.location }, 'imported the releases of RELEASES_DIR into the database and the artifact store');
    return count;
  } finally {
    await lease.release();
  }
}
