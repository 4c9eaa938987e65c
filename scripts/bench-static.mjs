// npm run bench:static — what serving the apps' files costs, by the API in all-in-one mode (Node,
// before each app had its own container) and by an app's own nginx (its image's entrypoint and
// configuration, Debian's nginx on this machine): requests per second and p99 latency for the
// blog remote's manifest, its remote entry and its largest chunk, brotli as browsers ask.
// Options: --duration <s> (default 5), --connections <n> (default 20).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { freePort } from '../api/scripts/embedded-postgres.mjs';
import { apiSettings, hasNginx, startAppNginx, stop, waitFor } from './bench-servers.mjs';
import { buildIfStale } from './build-if-stale.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && args[index + 1] ? Number(args[index + 1]) : fallback;
};
const DURATION = option('duration', 5);
const CONNECTIONS = option('connections', 20);
const BLOG_DIST = path.join(root, 'mfe-blog/dist');

async function startApi(workDir) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'api/dist/server.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // No release of the checkout's data/ is served or written: the build folders are measured.
      ...apiSettings(workDir),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}/remotes/blog`;
  await waitFor(`${base}/mf-manifest.json`, child);
  return { child, base };
}

function startNginx(workDir) {
  return startAppNginx(workDir, {
    siteRoot: root,
    appFolder: 'mfe-blog',
    appRoot: BLOG_DIST,
    template: 'shared/deploy/nginx/remote-site.conf.template',
    env: { SHELL_ORIGIN: 'http://localhost:8080' },
    readyPath: '/mf-manifest.json',
  });
}

/** The blog's manifest, remote entry and its largest script, by name. */
function blogFiles() {
  const manifest = JSON.parse(fs.readFileSync(path.join(BLOG_DIST, 'mf-manifest.json'), 'utf8'));
  const chunks = new Set(manifest.exposes.flatMap((expose) => expose.assets.js.sync));
  const largest = [...chunks].sort((a, b) => fs.statSync(path.join(BLOG_DIST, b)).size - fs.statSync(path.join(BLOG_DIST, a)).size)[0];
  return { 'mf-manifest.json': 'mf-manifest.json', 'remoteEntry.js': manifest.metaData.remoteEntry.name, 'largest chunk': largest };
}

async function measure(base, file) {
  const options = { url: `${base}/${file}`, connections: CONNECTIONS, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } };
  await autocannon({ ...options, duration: 1 });
  const result = await autocannon({ ...options, duration: DURATION });
  return { rps: Math.round(result.requests.average), p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors + result.timeouts };
}

async function main() {
  if (!hasNginx()) {
    throw new Error('nginx is not installed (apt-get install -y nginx libnginx-mod-http-brotli-static)');
  }
  buildIfStale();
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-bench-static-'));
  const rows = [];
  try {
    for (const [label, start] of [
      ['API (Node, all-in-one)', startApi],
      ["the blog's nginx", startNginx],
    ]) {
      const server = await start(workDir);
      try {
        for (const [name, file] of Object.entries(blogFiles())) {
          console.error(`… ${label}: ${name}`);
          rows.push({ label, name, ...(await measure(server.base, file)) });
        }
      } finally {
        await stop(server.child);
      }
    }
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  console.log(`\nStatic files of the blog remote: ${os.cpus().length} CPU(s), ${CONNECTIONS} connections, ${DURATION} s each, brotli\n`);
  console.log('| Served by | File | Requests/s | p99 latency (ms) | non-2xx | errors |');
  console.log('|---|---|---:|---:|---:|---:|');
  for (const row of rows) console.log(`| ${row.label} | ${row.name} | ${row.rps} | ${row.p99} | ${row.non2xx} | ${row.errors} |`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
