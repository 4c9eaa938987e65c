import { releaseSet, type RemotesDocument } from '@agency/shared';
import { APP_NAMES } from './apps';
import type { ReleaseReader } from './reader';

/**
 * Every release the site knows of each app: its kept releases (current, previous, a canary's
 * candidate, staged ones) and what it serves now (a build folder, a remote hosted elsewhere).
 */
export async function knownReleases(releases: ReleaseReader, served: RemotesDocument): Promise<(app: string, release: string) => boolean> {
  const known = new Map<string, Set<string>>();
  for (const app of APP_NAMES) known.set(app, new Set((await releases.get(app)).releases.map((release) => release.id)));
  for (const [app, release] of Object.entries(releaseSet(served))) known.get(app)?.add(release);
  return (app, release) => known.get(app)?.has(release) ?? false;
}
