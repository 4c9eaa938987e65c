// Names of the build's files the API reads to render pages (plain constants: the API loads this
// module at run time, where webpack is not installed).
/** The app's server bundle, inside its dist folder or release (see shared/src/page/server-rendering.ts). */
const SERVER_DIR = 'server';
const SERVER_BUNDLE_FILE = `${SERVER_DIR}/render.js`;
/** The shell's list of first-render styles, scripts and fonts (see page-assets-plugin.js). */
const PAGE_ASSETS_FILE = 'page-assets.json';
/** Module Federation's manifest, which lists a remote's entry and each exposed module's files. */
const MANIFEST_FILE = 'mf-manifest.json';

/**
 * What a remote's server markup puts before its own files' names (a team photo): the API puts the
 * address of the release it rendered from in its place, as the browser build finds it at run time.
 */
const SERVER_ASSET_BASE = 'https://remote-release.invalid/';

module.exports = { SERVER_DIR, SERVER_BUNDLE_FILE, PAGE_ASSETS_FILE, MANIFEST_FILE, SERVER_ASSET_BASE };
