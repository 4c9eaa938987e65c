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
  const remotes = {} as Record<RemoteName, RemoteLocation>;
  for (const name of REMOTE_NAMES) remotes[name] = await locate(name);
  const { current: shell } = await releases.get(SHELL);
  return { shell: { release: shell?.id ?? UNRELEASED }, remotes };
}
