import type { ComponentType } from 'react';
import { loadRemote } from '@module-federation/enhanced/runtime';
import { remoteOfModule, type RemoteModuleId } from '@agency/shared';
import { refreshRemote, registeredRemote, registerRuntimeRemotes } from './remotes-config';
import { REMOTE_UNAVAILABLE } from './remote-fallback-plugin';
import { reportRemoteError } from './remote-error-reporting';

type RemoteModule = { default?: unknown } & Record<string, unknown>;

export interface LoadedRemoteModule {
  component: ComponentType<object>;
  /** The release of the remote the component came from. */
  release: string;
}

/** Loads after the first one; the wait before each grows, for a network that is briefly down. */
export const RETRY_DELAYS_MS = [300, 1500];

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The module's component, or why it could not be loaded. */
async function tryLoad(id: RemoteModuleId): Promise<{ component: ComponentType<object> } | { error: unknown }> {
  try {
    const remoteModule = await loadRemote<RemoteModule>(id);
    const unavailable = remoteModule?.[REMOTE_UNAVAILABLE];
    if (unavailable) return { error: unavailable instanceof Error ? unavailable : new Error(`Remote module ${id} did not load`) };
    if (!remoteModule || typeof remoteModule.default !== 'function') return { error: new Error(`Remote module ${id} has no component`) };
    return { component: remoteModule.default as ComponentType<object> };
  } catch (error) {
    console.error(`[federation] loading ${id} failed`, error);
    return { error };
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
  const remote = remoteOfModule(id);
  // A remote the page's own map leaves out (one mounted under another path) is looked up first.
  if (!registeredRemote(remote)) await refreshRemote(remote).catch(() => false);
  for (let attempt = 0; ; attempt += 1) {
    const release = registeredRemote(remote)?.release ?? 'unknown';
    const loaded = await tryLoad(id);
    if ('component' in loaded) return { component: loaded.component, release };
    const delay = RETRY_DELAYS_MS[attempt];
    // Counted against the release that failed to load; a retry may move to another one.
    reportRemoteError(delay === undefined ? 'load_failure' : 'load_retry', loaded.error, remote);
    if (delay === undefined) throw new Error(`Remote module ${id} is unavailable`);
    const moved = await refreshRemote(remote).catch(() => false);
    if (!moved) await wait(delay);
  }
}
