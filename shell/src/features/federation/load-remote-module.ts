import type { ComponentType } from 'react';
import { loadRemote } from '@module-federation/enhanced/runtime';
import type { RemoteModuleId, RemoteName } from '@agency/shared';
import { refreshRemote, registeredRemote, registerRuntimeRemotes } from './remotes-config';
import { REMOTE_UNAVAILABLE } from './remote-fallback-plugin';

type RemoteModule = { default?: unknown } & Record<string, unknown>;

export interface LoadedRemoteModule {
  component: ComponentType<object>;
  /** The release of the remote the component came from. */
  release: string;
}

/** Loads after the first one; the wait before each grows, for a network that is briefly down. */
export const RETRY_DELAYS_MS = [300, 1500];

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function tryLoad(id: RemoteModuleId): Promise<ComponentType<object> | undefined> {
  try {
    const remoteModule = await loadRemote<RemoteModule>(id);
    if (!remoteModule || remoteModule[REMOTE_UNAVAILABLE] || typeof remoteModule.default !== 'function') return undefined;
    return remoteModule.default as ComponentType<object>;
  } catch (error) {
    console.error(`[federation] loading ${id} failed`, error);
    return undefined;
  }
}

/**
 * Loads an exposed module's component. A failed manifest, entry or chunk load is retried; before
 * each retry the remote is looked up again, so a page whose release is gone (a host lost it, or it
 * was pruned while the tab stayed open) moves to the current one. The move loads a second
 * container of that remote beside the first; both builds share webpack's chunk registry (one
 * `uniqueName`), so modules the old release already loaded may be reused by the new one: the price
 * of not failing until a reload, paid only on this path.
 */
export async function loadRemoteModule(id: RemoteModuleId): Promise<LoadedRemoteModule> {
  await registerRuntimeRemotes();
  const remote = id.slice(0, id.indexOf('/')) as RemoteName;
  for (let attempt = 0; ; attempt += 1) {
    const release = registeredRemote(remote)?.release ?? 'unknown';
    const component = await tryLoad(id);
    if (component) return { component, release };
    const delay = RETRY_DELAYS_MS[attempt];
    if (delay === undefined) throw new Error(`Remote module ${id} is unavailable`);
    const moved = await refreshRemote(remote).catch(() => false);
    if (!moved) await wait(delay);
  }
}
