import { REPO_ROOT, type DeliveryConfig } from '../../platform/config';
import type { ObjectStore } from '../../platform/object-store/object-store';
import { openObjectStore } from '../../platform/object-store/open-object-store';
import { ReleaseCache } from '../artifacts/release-files';

/** Where this process finds release files: the artifact store, and this machine's copies of them. */
export interface ReleaseStorage {
  store: ObjectStore;
  cache: ReleaseCache;
}

export function openReleaseStorage(config: Pick<DeliveryConfig, 'releaseStore' | 'releaseCacheDir' | 's3'>): ReleaseStorage {
  const store = openObjectStore(config.releaseStore, config.s3, REPO_ROOT);
  return { store, cache: new ReleaseCache({ store, dir: config.releaseCacheDir }) };
}
