import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { onEachResolvedShare, type SharedEntry } from './resolved-shares';

/** Makes a failed fetch of `shared` forgotten, so the next request for it fetches again. */
function forgetFailedLoads(shared: SharedEntry): void {
  if (typeof shared.get !== 'function') return;
  const get = shared.get;
  shared.get = (() => {
    const got = get();
    // A library already in the page comes back at once; only a fetch can fail.
    if (!(got instanceof Promise)) return got;
    return got.catch((error: unknown) => {
      shared.loading = null;
      throw error;
    });
  }) as SharedEntry['get'];
}

/**
 * Federation runtime plugin: a shared library whose chunk failed to load (a dropped connection) is
 * fetched again the next time an app asks for it.
 *
 * The runtime keeps the promise of a library being loaded on its share-scope entry and hands that
 * same promise to every later request, a failed one too. One lost fetch would then break every
 * later use of the library until the page is reloaded: a post page could not open the next post,
 * since the HTTP client is fetched with the first API request.
 */
export default function retryFailedSharePlugin(): ModuleFederationRuntimePlugin {
  return { name: 'agency-retry-failed-share', resolveShare: onEachResolvedShare(forgetFailedLoads) };
}
