import { registerRemotes } from '@module-federation/enhanced/runtime';
import { REMOTE_NAMES, remoteFederationName, type RemoteLocation, type RemoteName, type RemotesDocument } from '@agency/shared';

const registered = new Map<RemoteName, RemoteLocation>();
let registration: Promise<void> | undefined;

async function fetchRemotesDocument(): Promise<RemotesDocument> {
  const response = await fetch('/remotes.json', { cache: 'no-cache' });
  if (!response.ok) throw new Error(`/remotes.json answered ${response.status}`);
  return (await response.json()) as RemotesDocument;
}

function register(document: RemotesDocument, names: readonly RemoteName[], force: boolean): void {
  registerRemotes(
    names.map((name) => ({ name: remoteFederationName(name), alias: name, entry: document.remotes[name].entry })),
    { force },
  );
  for (const name of names) registered.set(name, document.remotes[name]);
  window.__AGENCY_RELEASES__ = { shell: document.shell.release, remotes: Object.fromEntries(registered) };
}

/**
 * Asks the server where the remotes live (`/remotes.json`) and registers them with the
 * federation runtime. Called once; every remote slot waits on the same promise.
 */
export function registerRuntimeRemotes(): Promise<void> {
  registration ??= fetchRemotesDocument().then((document) => register(document, REMOTE_NAMES, false));
  return registration;
}

/** The release this page loads `name` from now. */
export function registeredRemote(name: RemoteName): RemoteLocation | undefined {
  return registered.get(name);
}

/**
 * After a failed load: asks the server again and registers the remote anew. When a deploy has
 * made another release current, the page switches to it instead of failing until a reload; when
 * not, re-registering still drops the runtime's record of the failed load, so it is tried again.
 * Resolves whether the release changed.
 */
export async function refreshRemote(name: RemoteName): Promise<boolean> {
  const document = await fetchRemotesDocument();
  const before = registered.get(name);
  register(document, [name], true);
  return before?.entry !== document.remotes[name].entry;
}
