/**
 * The names of the site's apps, read from `registry.json` (the one place that names them): the
 * telemetry contract accepts exactly these, so they sit with the contracts, below the federation
 * code (../federation/remotes.ts) that locates and loads the remotes. The registry is a data file
 * every tool reads (webpack, scripts, the API), not code of the federation folder.
 */
import registry from '../federation/registry.json';

export type RemoteName = keyof typeof registry.remotes;

export const REMOTE_NAMES = Object.keys(registry.remotes) as RemoteName[];

/** The host's id (`shell`). */
export const HOST_NAME = registry.host.id;

/** Every app of the site, each built, released and monitored on its own: the host, then the remotes. */
export const APP_NAMES: readonly string[] = [HOST_NAME, ...REMOTE_NAMES];
