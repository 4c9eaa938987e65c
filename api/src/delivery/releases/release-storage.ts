import { REPO_ROOT, type DeliveryConfig } from '../../platform/config';
import type { ArtifactStore } from '../artifacts/artifact-store';
import { openArtifactStore } from '../artifacts/open-artifact-store';
import { ReleaseCache } from '../artifacts/release-files';

/** Where this process finds release files: the artifact store, and this machine's copies of them. */
export interface ReleaseStorage {
  store: ArtifactStore;
  cache: ReleaseCache;
}

export function openReleaseStorage(config: Pick<DeliveryConfig, 'releaseStore' | 'releaseCacheDir' | 's3'>): ReleaseStorage {
  const store = openArtifactStore(config.releaseStore, config.s3, REPO_ROOT);
  return { store, cache: new ReleaseCache({ store, dir: config.releaseCacheDir }) };
}
