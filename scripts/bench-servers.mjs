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
  const child = spawn(process.execPath, [path.join(apiRoot, 'api/dist/server.js')], {
    env: { ...process.env, ...apiSettings(dataDir), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitFor(`${base}/api/health`, child);
  return { child, base, port, databaseFile: path.join(dataDir, 'bench.sqlite') };
}

/**
 * What a benchmark's API (and a release command run beside it) reads: this checkout's front-end
 * builds, and a fresh SQLite database (`bench.sqlite`), release store, release cache and media
 * folder in `dataDir`, so no release of the checkout's data/ is served or written.
 */
export function apiSettings(dataDir) {
  return {
    STATIC_ROOT: root,
    SITE_URL: 'https://khvylia.example',
    DATABASE_URL: `sqlite:${path.join(dataDir, 'bench.sqlite')}`,
    ...releaseSettings(dataDir),
    MEDIA_DIR: path.join(dataDir, 'media'),
    // Backups run as they do on a site, into the bench's folder, not the checkout's data/.
    BACKUP_STORE: `file:${path.join(dataDir, 'backups')}`,
    BACKUP_KEY_PATH: path.join(dataDir, 'backup-key.txt'),
  };
}

/**
 * Release settings in `dataDir`: a RELEASES_DIR that does not exist (nothing imported) and a fresh
 * release store and cache, so no release of the checkout's data/ is served or written.
 */
export function releaseSettings(dataDir) {
  return {
    RELEASES_DIR: path.join(dataDir, 'releases'),
    RELEASE_STORE: `file:${path.join(dataDir, 'release-store')}`,
    RELEASE_CACHE_DIR: path.join(dataDir, 'release-cache'),
  };
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

/**
 * s3rver (an S3 API server, the one the tests use) on a free port of 127.0.0.1, its data in
 * `workDir`, with the bucket `bucket`; `env` is what the API needs to use it.
 */
export async function startS3rver(workDir, bucket) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(workDir, 's3rver-'));
  // Its ListObjectsV2 continuation tokens use DES, which OpenSSL 3 keeps in its legacy provider.
  const script = path.join(root, 'node_modules/s3rver/bin/s3rver.js');
  const child = spawn(process.execPath, ['--openssl-legacy-provider', script, '--directory', dataDir, '--address', '127.0.0.1', '--port', String(port), '--silent', '--configure-bucket', bucket], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const endpoint = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`s3rver exited (${child.exitCode})`);
    // Any HTTP answer (403 without credentials) means it listens.
    if (await fetch(endpoint).then(() => true, () => false)) break;
    if (attempt > 100) throw new Error('s3rver did not answer');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    child,
    env: { S3_ENDPOINT: endpoint, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', S3_FORCE_PATH_STYLE: 'true' },
  };
}
