import { registerRemotes } from '@module-federation/enhanced/runtime';
import { REMOTE_FEDERATION_NAMES, REMOTE_NAMES, type RemotesConfig } from '@agency/shared';

let registration: Promise<void> | undefined;

/**
 * Asks the server where the remotes live (`/remotes.json`) and registers them with the
 * federation runtime. Called once; every remote slot waits on the same promise.
 */
export function registerRuntimeRemotes(): Promise<void> {
  registration ??= fetch('/remotes.json', { cache: 'no-cache' })
    .then((response) => {
      if (!response.ok) throw new Error(`/remotes.json answered ${response.status}`);
      return response.json() as Promise<RemotesConfig>;
    })
    .then((config) => {
      registerRemotes(
        REMOTE_NAMES.map((name) => ({ name: REMOTE_FEDERATION_NAMES[name], alias: name, entry: config[name] })),
      );
    });
  return registration;
}
