// What the benchmarks start and stop: a server process, and an app's nginx as its image runs it.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../api/scripts/embedded-postgres.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Polls `url` until it answers 2xx; fails if `child` exits first or it never does (30 s). */
export async function waitFor(url, child) {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited (${child.exitCode})`);
    if (await fetch(url).then((response) => response.ok, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer`);
}

/**
 * The API's production build (`api/dist` of the checkout at `apiRoot`) on a free port, serving this
 * checkout's front-end builds, with a fresh SQLite database (`bench.sqlite`), release store, release
 * cache and media folder in `dataDir`; `env` adds to or overrides its settings.
 */
export async function startApi(dataDir, { env = {}, apiRoot = root } = {}) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const databaseFile = path.join(dataDir, 'bench.sqlite');
  const child = spawn(process.execPath, [path.join(apiRoot, 'api/dist/server.js')], {
    env: {
      ...process.env,
      STATIC_ROOT: root,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SITE_URL: 'https://khvylia.example',
      DATABASE_URL: `sqlite:${databaseFile}`,
      // No release of the checkout's data/ is served or written: the build folders are measured.
      RELEASES_DIR: path.join(dataDir, 'releases'),
      RELEASE_STORE: `file:${path.join(dataDir, 'release-store')}`,
      RELEASE_CACHE_DIR: path.join(dataDir, 'release-cache'),
      MEDIA_DIR: path.join(dataDir, 'media'),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitFor(`${base}/api/health`, child);
  return { child, base, port, databaseFile };
}

/** Stops a server with SIGTERM and resolves once it has exited. */
export function stop(child) {
  if (child.exitCode !== null) return Promise.resolve();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  return exited;
}

/**
 * An app's nginx as its image runs it: the entrypoint script and templates of the checkout at
 * `siteRoot` (Debian's nginx on this machine), on a free port, serving `appRoot`. `template` is
 * the site template (`shell/deploy/nginx-site.conf.template`, …) and `env` the image's settings.
 * Ready once `readyPath` answers.
 */
export async function startAppNginx(workDir, { siteRoot, appFolder, appRoot, template, env, readyPath }) {
  const port = await freePort();
  const confDir = fs.mkdtempSync(path.join(workDir, 'nginx-conf-'));
  fs.cpSync(path.join(siteRoot, 'shared/deploy/nginx/common'), confDir, { recursive: true });
  fs.cpSync(path.join(siteRoot, template), path.join(confDir, 'site.conf.template'));
  const child = spawn(path.join(siteRoot, 'shared/deploy/static-app-entrypoint.sh'), [], {
    env: {
      PATH: `${process.env.PATH}:/usr/sbin`,
      APP_FOLDER: appFolder,
      APP_ROOT: appRoot,
      LISTEN_PORT: String(port),
      NGINX_CONF_DIR: confDir,
      NGINX_RUN_DIR: fs.mkdtempSync(path.join(workDir, 'nginx-run-')),
      ...(process.getuid?.() === 0 ? { NGINX_EXTRA_GLOBALS: 'user root;' } : {}),
      ...env,
    },
    // nginx logs every request to stdout: that is its container's log, not wanted here.
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}${readyPath}`, child);
  return { child, base };
}

export function hasNginx() {
  return spawnSync('sh', ['-c', 'command -v nginx || test -x /usr/sbin/nginx'], { stdio: 'ignore' }).status === 0;
}

/**
 * The shell's nginx as its image runs it (its page cache and all), serving this checkout's shell
 * build in front of the API at `apiPort`; `siteRoot` is the checkout whose configuration it runs.
 */
export function startShellNginx(workDir, apiPort, { siteRoot = root } = {}) {
  return startAppNginx(workDir, {
    siteRoot,
    appFolder: 'shell',
    appRoot: path.join(root, 'shell/dist'),
    template: 'shell/deploy/nginx-site.conf.template',
    env: { API_UPSTREAMS: `127.0.0.1:${apiPort}` },
    readyPath: '/healthz',
  });
}
