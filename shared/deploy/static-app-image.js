// How a static app's image (the shell's or a remote's) is built: one Dockerfile for all of them,
// told the app by build arguments. docker-compose.yml gives the same arguments (docker-files.test.ts
// checks it); `npm run swarm` builds with these.
const { HOST, REMOTES } = require('../webpack/apps.js');

const STATIC_APP_DOCKERFILE = 'shared/deploy/static-app.Dockerfile';

/** The build arguments of the app in `folder`: its folder and the name the release API knows it by. */
function staticAppBuildArgs(folder) {
  const app = [HOST, ...REMOTES].find((each) => each.folder === folder);
  if (!app) throw new Error(`${folder} is not a static app of the registry`);
  return { APP_FOLDER: folder, RELEASE_APP: app.id };
}

module.exports = { STATIC_APP_DOCKERFILE, staticAppBuildArgs };
