// What a workspace's production build reads: build-if-stale rebuilds when any of it is newer than
// the build, and the browser suites key the builds they make from changed sources by its content.
const { existsSync, readdirSync, statSync } = require('node:fs');
const path = require('node:path');
const { SHARED_FOLDER } = require('../shared/webpack/apps.js');

/** Inputs every workspace's build reads, from the repository's root: the shared package and the lockfile. */
const COMMON_INPUTS = ['src', 'webpack', 'styles', 'package.json']
  .map((input) => `${SHARED_FOLDER}/${input}`)
  .concat(['package-lock.json', 'tsconfig.json']);

/** Inputs of a workspace's own build, from its folder. */
const OWN_INPUTS = ['src', 'public', 'webpack.config.js', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];

/** Test files sit beside the sources they test but are never built: editing one changes no build. */
const TEST_FILE = /\.test\.[cm]?[jt]sx?$/;

/** The inputs of `workspace`'s build that exist (files and folders), from the repository's root. */
function buildInputs(root, workspace) {
  return [...COMMON_INPUTS, ...OWN_INPUTS.map((input) => path.join(workspace, input))].filter((input) => existsSync(path.join(root, input)));
}

/** Every file `workspace`'s build reads, from the repository's root, in a stable order. */
function buildInputFiles(root, workspace) {
  const files = [];
  const add = (relative) => {
    const full = path.join(root, relative);
    if (!statSync(full).isDirectory()) {
      if (!TEST_FILE.test(relative)) files.push(relative);
      return;
    }
    for (const entry of readdirSync(full).sort()) add(path.join(relative, entry));
  };
  buildInputs(root, workspace).forEach(add);
  return files;
}

module.exports = { TEST_FILE, buildInputs, buildInputFiles };
