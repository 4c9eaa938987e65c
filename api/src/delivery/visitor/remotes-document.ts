import {
  EXTERNAL_RELEASE,
  localBuildOrigin,
  localBuildRelease,
  REMOTE_NAMES,
  remoteBasePath,
  RELEASE_BUCKETS,
  UNRELEASED,
  type RemoteLocation,
  type RemoteName,
  type RemotesDocument,
} from '@agency/shared';
import { SHELL, type AppName } from '../releases/apps';
import type { ReleaseReader } from '../releases/reader';
import type { AppReleases } from '../releases/release-repository';
import type { RemoteOverride } from './remote-override';

/** Which of an app's releases a visitor gets, besides the current one (see visitor-releases.ts). */
export interface ReleaseChoice {
  /** The visitor's bucket: the candidate of a canary whose share covers it. */
  bucket?: number;
  /** A preview link's release of one app. */
  pin?: { app: AppName; release: string };
  /** A release manager's override of one remote for their browser (checked: see remote-override.ts). */
  override?: Pick<RemoteOverride, 'app' | 'target'>;
}

/** Whether a canary's share covers `bucket` (a share of 12.5 covers buckets 0–1,249). */
export function inShare(bucket: number, share: number): boolean {
  return bucket < Math.round((share / 100) * RELEASE_BUCKETS);
}

/** The release of `app` a visitor gets: an override's, else a preview's pin, else a canary's candidate, else the current one. */
function chosenRelease(app: AppName, state: AppReleases, choice: ReleaseChoice): string | undefined {
  const override = choice.override?.app === app ? choice.override.target : undefined;
  if (override && 'release' in override && state.releases.some((release) => release.id === override.release)) return override.release;
  if (choice.pin?.app === app && state.releases.some((release) => release.id === choice.pin?.release)) return choice.pin.release;
  if (state.candidate && choice.bucket !== undefined && inShare(choice.bucket, state.candidate.share)) return state.candidate.id;
  return state.current?.id;
}

/**
 * The body of /remotes.json, and the map each page carries: where the shell loads each remote
 * from. A remote set through its REMOTE_*_URL variable is `external`; else the release this
 * visitor gets (`choice`; by default the current one), a URL that never changes content; else its
 * dist folder (an app with no current release). An override's build on the member's own machine
 * comes before all of these: its manifest on `http://localhost:<port>/`.
 */
export async function remotesDocument(
  releases: ReleaseReader,
  remoteUrls: Partial<Record<RemoteName, string>>,
  choice: ReleaseChoice = {},
): Promise<RemotesDocument> {
  const locate = async (name: RemoteName): Promise<RemoteLocation> => {
    const override = choice.override?.app === name ? choice.override.target : undefined;
    if (override && 'port' in override) return { entry: `${localBuildOrigin(override.port)}/mf-manifest.json`, release: localBuildRelease(override.port) };
    const state = await releases.get(name);
    // An override's kept release stands in for a remote hosted elsewhere too: it is what the banner says.
    const url = override && state.releases.some((release) => release.id === override.release) ? undefined : remoteUrls[name];
    if (url) return { entry: url, release: EXTERNAL_RELEASE };
    const release = chosenRelease(name, state, choice);
    if (release) return { entry: `${remoteBasePath(name)}${release}/mf-manifest.json`, release };
    return { entry: `${remoteBasePath(name)}mf-manifest.json`, release: UNRELEASED };
  };
  // Read side by side: once a second each app's state is read from disk, on a request's way.
  const [locations, shell] = await Promise.all([Promise.all(REMOTE_NAMES.map(locate)), releases.get(SHELL)]);
  const remotes = Object.fromEntries(REMOTE_NAMES.map((name, index) => [name, locations[index]])) as Record<RemoteName, RemoteLocation>;
  return { shell: { release: chosenRelease(SHELL, shell, choice) ?? UNRELEASED }, remotes };
}
