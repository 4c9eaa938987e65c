// The registry of apps (shared/src/federation/registry.json) as the build tools see it: webpack
// configs, `npm run dev`, build-if-stale, jest, eslint and the test runner all derive from this.
const path = require('node:path');
const registry = require('../src/federation/registry.json');

const SHARED_FOLDER = path.basename(path.resolve(__dirname, '..'));

/** Remotes as a list: `{ id, federationName, folder, devPort, urlVariable, title, exposes }`. */
const REMOTES = Object.entries(registry.remotes).map(([id, remote]) => ({ id, ...remote }));
const HOST = registry.host;
const API = registry.api;

/** Browser apps, shell first. */
const BROWSER_APP_FOLDERS = [HOST.folder, ...REMOTES.map((remote) => remote.folder)];

/** Every workspace in build order: shared first (everyone imports it), the API last. */
const WORKSPACES = [SHARED_FOLDER, ...BROWSER_APP_FOLDERS, API.folder];

/** The remote whose folder is `appDir`, or undefined for the shell. */
function remoteInFolder(appDir) {
  return REMOTES.find((remote) => remote.folder === path.basename(appDir));
}

/**
 * What the shell's dev server answers on `/remotes.json`: each remote's dev server, unless its
 * URL variable points elsewhere. Same shape as the API server's answer.
 */
function devRemotesDocument(env) {
  return {
    shell: { release: 'dev' },
    remotes: Object.fromEntries(
      REMOTES.map((remote) => {
        const override = env[remote.urlVariable]?.trim();
        return override
          ? [remote.id, { entry: override, release: 'external' }]
          : [remote.id, { entry: `http://localhost:${remote.devPort}/mf-manifest.json`, release: 'dev' }];
      }),
    ),
  };
}

module.exports = {
  SHARED_FOLDER,
  HOST,
  API,
  REMOTES,
  BROWSER_APP_FOLDERS,
  WORKSPACES,
  remoteInFolder,
  devRemotesDocument,
};
