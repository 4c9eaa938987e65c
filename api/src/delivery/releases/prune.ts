import { PREVIEW_TOKEN_HOURS } from '@agency/shared';
import type { Db } from '../../platform/db/connection';
import type { ObjectStore } from '../../platform/object-store/object-store';
import type { AppName } from './apps';
import { UPLOAD_LEASE_MS } from './publish';
import { commitReleaseChange } from './release-change';
import { loadAppReleases, type AppReleases, type ReleaseRecord } from './release-repository';
import { ConcurrentChangeError } from './refused-error';

/**
 * How long a release stays after it stopped being current: a page opened before a release keeps
 * loading its lazy chunks (and its remotes' files) from the release it was rendered with.
 */
export const SKEW_WINDOW_MS = 24 * 3_600_000;

/** Drops ids that no longer exist and repeats left next to each other by that. */
export function compactHistory(history: readonly string[], kept: ReadonlySet<string>): string[] {
  const result: string[] = [];
  for (const id of history) {
    if (kept.has(id) && result.at(-1) !== id) result.push(id);
  }
  return result;
}

/**
 * The releases pruning may delete: all but the `keep` newest, the current and previous ones (a
 * rollback always has somewhere to go), the canary's candidate, every release staged within a
 * preview link's lifetime, and every release that stopped being current within the skew window.
 */
export function prunable(app: AppReleases, keep: number, now: number): ReleaseRecord[] {
  const { releases, current, previous, candidate, events } = app;
  const kept = new Set(releases.slice(0, Math.max(keep, 1)).map((release) => release.id));
  for (const release of [current, previous, candidate?.release]) if (release) kept.add(release.id);
  const previewSince = now - PREVIEW_TOKEN_HOURS * 3_600_000;
  for (const event of events) if (event.action === 'staged' && Date.parse(event.at) > previewSince) kept.add(event.release);
  for (const release of releases) if (release.currentUntil && Date.parse(release.currentUntil) > now - SKEW_WINDOW_MS) kept.add(release.id);
  return releases.filter((release) => !kept.has(release.id));
}

/**
 * Deletes what `prunable` names: first from the record (one change, so no server picks a release
 * about to vanish), then its files from the store. Uploads that crashed (their id taken longer than
 * an upload may take) go too. A change that lands meanwhile wins: pruning waits for the next command.
 */
export async function pruneReleases(db: Db, store: ObjectStore, app: AppName, keep: number, actor: string, now = Date.now()): Promise<ReleaseRecord[]> {
  const state = await loadAppReleases(db, app);
  const doomed = prunable(state, keep, now);
  if (doomed.length > 0) {
    const kept = new Set(state.releases.filter((release) => !doomed.includes(release)).map((release) => release.id));
    try {
      await commitReleaseChange(db, {
        app,
        startedAt: state.state.revision,
        history: compactHistory(state.history, kept),
        forget: doomed.map((release) => release.id),
        events: doomed.map((release) => ({ release: release.id, action: 'pruned', reason: `older than the ${keep} newest releases kept` })),
        actor,
        at: new Date(now),
      });
    } catch (error) {
      if (error instanceof ConcurrentChangeError) return [];
      throw error;
    }
    for (const release of doomed) await store.deletePrefix(`${app}/${release.id}/`);
  }
  const crashed = await db.kysely
    .selectFrom('releases')
    .select('id')
    .where('app', '=', app)
    .where('status', '=', 'uploading')
    .where('published_at', '<', new Date(now - UPLOAD_LEASE_MS).toISOString())
    .execute();
  for (const { id } of crashed) {
    await store.deletePrefix(`${app}/${id}/`);
    await db.kysely.deleteFrom('releases').where('app', '=', app).where('id', '=', id).where('status', '=', 'uploading').execute();
  }
  return doomed;
}
