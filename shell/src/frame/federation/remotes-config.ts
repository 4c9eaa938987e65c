import { registerRemotes } from '@module-federation/enhanced/runtime';
import {
  PAGE_DATA_IDS,
  REMOTE_NAMES,
  remoteFederationName,
  type RemoteLocation,
  type RemoteName,
  type RemotesDocument,
} from '@agency/shared';

const registered = new Map<RemoteName, RemoteLocation>();
let registration: Promise<void> | undefined;

async function fetchRemotesDocument(): Promise<RemotesDocument> {
  const response = await fetch('/remotes.json', { cache: 'no-cache' });
  if (!response.ok) throw new Error(`/remotes.json answered ${response.status}`);
  return (await response.json()) as RemotesDocument;
}

function register(document: RemotesDocument, wanted: readonly RemoteName[], force: boolean): void {
  // A page's own map leaves out the remotes it never loads (the staff console on public pages).
  const names = wanted.filter((name) => document.remotes[name] !== undefined);
  registerRemotes(
    names.map((name) => ({ name: remoteFederationName(name), alias: name, entry: document.remotes[name].entry })),
    { force },
  );
  for (const name of names) registered.set(name, document.remotes[name]);
  // The shell's own release is the one this page was loaded with, whatever the server says later.
  const shell = window.__AGENCY_RELEASES__?.shell ?? document.shell.release;
  window.__AGENCY_RELEASES__ = { shell, remotes: Object.fromEntries(registered) };
}

/** The remotes map the server put into the page it sent (absent from the dev server's page). */
export function remotesDocumentInPage(): RemotesDocument | undefined {
  const element = document.getElementById(PAGE_DATA_IDS.remotes);
  try {
    return element?.textContent ? (JSON.parse(element.textContent) as RemotesDocument) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Registers where the remotes live with the federation runtime: from the map in the page, else
 * from `/remotes.json`. Called once; every remote slot waits on the same promise.
 */
export function registerRuntimeRemotes(): Promise<void> {
  const inPage = remotesDocumentInPage();
  registration ??= (inPage ? Promise.resolve(inPage) : fetchRemotesDocument()).then((remotes) =>
    register(remotes, REMOTE_NAMES, false),
  );
  return registration;
}

/** The release this page loads `name` from now. */
export function registeredRemote(name: RemoteName): RemoteLocation | undefined {
  return registered.get(name);
}

const refreshing = new Map<RemoteName, Promise<boolean>>();

/**
 * After a failed load: asks the server again where the remote lives. When a deploy has made
 * another release current, the remote is registered anew at it (the runtime then forgets the old
 * container), so the page moves on instead of failing until a reload; otherwise nothing changes
 * and the caller simply retries (the runtime and webpack do not keep failed loads). Slots failing
 * together share one request. Resolves whether the remote moved.
 */
export function refreshRemote(name: RemoteName): Promise<boolean> {
  let pending = refreshing.get(name);
  if (!pending) {
    pending = fetchRemotesDocument()
      .then((document) => {
        if (document.remotes[name] === undefined || registered.get(name)?.entry === document.remotes[name].entry) return false;
        register(document, [name], true);
        return true;
      })
      .finally(() => refreshing.delete(name));
    refreshing.set(name, pending);
  }
  return pending;
}
