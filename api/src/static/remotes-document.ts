import {
  EXTERNAL_RELEASE,
  REMOTE_NAMES,
  remoteBasePath,
  UNRELEASED,
  type RemoteLocation,
  type RemoteName,
  type RemotesDocument,
} from '@agency/shared';
import { SHELL } from '../releases/apps';
import type { ReleaseReader } from '../releases/reader';

/**
 * The body of /remotes.json: where the shell loads each remote from. A remote set through its
 * REMOTE_*_URL variable is `external`; else its current release (a URL that never changes
 * content); else its dist folder, as before releases existed.
 */
export async function remotesDocument(
  releases: ReleaseReader,
  remoteUrls: Partial<Record<RemoteName, string>>,
): Promise<RemotesDocument> {
  const locate = async (name: RemoteName): Promise<RemoteLocation> => {
    const url = remoteUrls[name];
    if (url) return { entry: url, release: EXTERNAL_RELEASE };
    const { current } = await releases.get(name);
    if (current) return { entry: `${remoteBasePath(name)}${current.id}/mf-manifest.json`, release: current.id };
    return { entry: `${remoteBasePath(name)}mf-manifest.json`, release: UNRELEASED };
  };
  // Read side by side: once a second each app's state is read from disk, on a request's way.
  const [locations, { current: shell }] = await Promise.all([Promise.all(REMOTE_NAMES.map(locate)), releases.get(SHELL)]);
  const remotes = Object.fromEntries(REMOTE_NAMES.map((name, index) => [name, locations[index]])) as Record<RemoteName, RemoteLocation>;
  return { shell: { release: shell?.id ?? UNRELEASED }, remotes };
}
