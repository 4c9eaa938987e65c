import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PREVIEW_TOKEN_HOURS } from '@agency/shared';
import type { AppName } from './apps';
import { writeState } from './state';
import { appReleasesDir, loadAppReleases, type ReleaseInfo } from './store';

/** Drops ids that no longer exist and repeats left next to each other by that. */
export function compactHistory(history: readonly string[], kept: ReadonlySet<string>): string[] {
  const result: string[] = [];
  for (const id of history) {
    if (kept.has(id) && result.at(-1) !== id) result.push(id);
  }
  return result;
}

/**
 * Deletes temp copies, trash and temp state files a crashed command left in an app's folder. Only
 * the holder of the releases folder's lock creates them, so under that lock every dot entry of an
 * app folder is a leftover (a per-app `.lock` of an older version of the command included).
 */
export async function removeLeftovers(appDir: string): Promise<void> {
  const entries = await fs.readdir(appDir).catch(() => [] as string[]);
  for (const name of entries) {
    if (name.startsWith('.')) await fs.rm(path.join(appDir, name), { recursive: true, force: true });
  }
}

/**
 * Keeps the `keep` newest releases plus the current and previous ones (so a rollback always has
 * somewhere to go), the canary's candidate and every release staged within a preview link's
 * lifetime, and deletes the rest. Old shell releases stay for a while because pages opened before
 * a deploy still load their lazy chunks from them.
 */
export async function pruneReleases(releasesDir: string, app: AppName, keep: number, now = Date.now()): Promise<ReleaseInfo[]> {
  const { releases, history, current, previous, candidate, state } = await loadAppReleases(releasesDir, app);
  const kept = new Set(releases.slice(0, Math.max(keep, 1)).map((release) => release.id));
  for (const release of [current, previous, candidate?.release]) if (release) kept.add(release.id);
  const previewSince = now - PREVIEW_TOKEN_HOURS * 3_600_000;
  for (const event of state.events) if (event.action === 'staged' && Date.parse(event.at) > previewSince) kept.add(event.release);
  const doomed = releases.filter((release) => !kept.has(release.id));
  if (doomed.length === 0) return [];
  const appDir = appReleasesDir(releasesDir, app);
  // The state stops naming them first; a reader then never picks a folder about to vanish.
  await writeState(appDir, { ...state, history: compactHistory(history, kept) });
  for (const release of doomed) {
    // Renamed away in one step, then deleted: the release disappears whole, never half.
    const trash = path.join(appDir, `.trash-${release.id}-${randomBytes(4).toString('hex')}`);
    await fs.rename(release.dir, trash);
    await fs.rm(trash, { recursive: true, force: true });
  }
  return doomed;
}
