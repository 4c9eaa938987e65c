import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';

/** Marker the runtime hands back instead of a module when a remote cannot be loaded. */
export const REMOTE_UNAVAILABLE = '__agencyRemoteUnavailable';

/**
 * Runtime plugin: a remote that is down (manifest, entry or chunk fails) resolves to a marker
 * module instead of rejecting deep inside the runtime, so its slot shows a message and the rest
 * of the page keeps working.
 */
export default function remoteFallbackPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'agency-remote-fallback',
    errorLoadRemote({ id, error, lifecycle }) {
      console.error(`[federation] remote "${id}" failed during ${lifecycle}`, error);
      // The marker carries the error, so the loader can report what failed.
      if (lifecycle === 'onLoad') return { [REMOTE_UNAVAILABLE]: error ?? true };
      return undefined;
    },
  };
}
