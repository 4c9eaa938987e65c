import { UNRELEASED } from '@agency/shared';
import { APP_NAMES } from './apps';
import type { ReleaseReader } from './reader';

/** Whether a canary judges an app's release now. */
export type Judged = (app: string, release: string) => boolean;

/**
 * The app releases a canary judges now: each app's candidate and its current release (the one it
 * is compared with). Telemetry keeps the distinct clients of these alone.
 */
export async function judgedReleases(releases: ReleaseReader): Promise<Judged> {
  const judged = new Map<string, Set<string>>();
  for (const app of APP_NAMES) {
    const { candidate, current } = await releases.get(app);
    if (candidate) judged.set(app, new Set([candidate.id, current?.id ?? UNRELEASED]));
  }
  return (app, release) => judged.get(app)?.has(release) ?? false;
}
