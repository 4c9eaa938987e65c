import type { Db } from '../../platform/db/connection';
import type { ObjectStore } from '../../platform/object-store/object-store';
import { contentDigest, storeReleaseFiles } from '../artifacts/release-files';
import { entryFile, type AppName } from './apps';
import { moveReleasesRevision } from './release-change';
import { releaseId, suffixedId } from './release-id';
import { findStoredRelease, type ReleaseRecord } from './release-repository';

/** A build to take into a release: its files (the build stamp aside) and what it says it is. */
export interface NewRelease {
  app: AppName;
  files: ReadonlyMap<string, Buffer>;
  version: string;
  revision: string;
  builtAt: Date;
  publishedAt: Date;
  /** Who publishes it (see DeliveryEvent.actor). */
  publishedBy: string;
}

/** How long an upload may hold an id before pruning takes it for a crashed one's. */
export const UPLOAD_LEASE_MS = 3_600_000;

/** Takes `id` for this upload; false when a release (or another upload) has it. */
async function reserveId(db: Db, input: NewRelease, id: string, digest: string, totalBytes: number): Promise<boolean> {
  const result = await db.kysely
    .insertInto('releases')
    .values({
      app: input.app,
      id,
      status: 'uploading',
      version: input.version,
      revision: input.revision,
      built_at: input.builtAt.toISOString(),
      published_at: input.publishedAt.toISOString(),
      digest,
      file_count: input.files.size,
      total_bytes: totalBytes,
      published_by: input.publishedBy,
    })
    .onConflict((conflict) => conflict.columns(['app', 'id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * Stores a build as a new, immutable release and returns it; or, when a kept release holds the
 * same files, returns that one (`created: false`). The id is taken in the database first (so no
 * two uploads write under one id), every file is stored and checked, its manifest last, and only
 * then is the release marked stored: before that no command and no visitor sees it, so a
 * half-uploaded release never exists. A failed upload leaves nothing behind.
 */
export async function createRelease(db: Db, store: ObjectStore, input: NewRelease): Promise<{ release: ReleaseRecord; created: boolean }> {
  if (!input.files.has(entryFile(input.app))) throw new Error(`A ${input.app} build needs ${entryFile(input.app)} at its root.`);
  const digest = contentDigest(input.files);
  const same = await findStoredRelease(db, input.app, { digest });
  if (same) return { release: same, created: false };
  const totalBytes = [...input.files.values()].reduce((sum, body) => sum + body.length, 0);
  const base = releaseId(input.version, input.revision, input.builtAt);
  let id: string | undefined;
  for (let attempt = 1; !id; attempt += 1) {
    const candidate = suffixedId(base, attempt);
    // An id whose files a crashed upload left in the store is skipped too: nothing is overwritten.
    if ((await reserveId(db, input, candidate, digest, totalBytes)) && (await store.list(`${input.app}/${candidate}/`)).length === 0) id = candidate;
    else if (attempt > 1000) throw new Error(`No free release id for ${input.app} ${base}`);
  }
  try {
    await storeReleaseFiles(store, input.app, id, input.files);
  } catch (error) {
    await store.deletePrefix(`${input.app}/${id}/`).catch(() => undefined);
    await db.kysely.deleteFrom('releases').where('app', '=', input.app).where('id', '=', id).execute();
    throw error;
  }
  await db.dialect.withWriteLock(db.kysely, async (kysely) => {
    await kysely.updateTable('releases').set({ status: 'stored' }).where('app', '=', input.app).where('id', '=', id).execute();
    await moveReleasesRevision({ kysely, dialect: db.dialect });
  });
  const release = await findStoredRelease(db, input.app, { id });
  if (!release) throw new Error(`${input.app} release ${id} was stored but is not recorded`);
  return { release, created: true };
}
