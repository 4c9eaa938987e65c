// Starts a throwaway PostgreSQL server for the api-postgres suite (scripts/embedded-postgres.mjs;
// ESM-only, hence .mjs). With TEST_POSTGRES_URL already set, uses that server instead.
import { startEmbeddedPostgres } from '../../scripts/embedded-postgres.mjs';

export default async function globalSetup() {
  if (process.env.TEST_POSTGRES_URL) return;
  // A throwaway server: nothing written needs to outlive the machine, only the server's own
  // processes (which tests stop and kill), so writes reach the OS without waiting for the disk.
  // Commits still go out before they return (synchronous_commit stays on).
  const server = await startEmbeddedPostgres({
    prefix: 'agency-api-pg-',
    postgresFlags: ['-c', 'max_connections=200', '-c', 'fsync=off', '-c', 'full_page_writes=off'],
  });
  globalThis.__AGENCY_EMBEDDED_PG__ = server;
  process.env.TEST_POSTGRES_URL = server.url();
}
