// Starts a throwaway PostgreSQL server for the api-postgres suite (scripts/embedded-postgres.mjs;
// ESM-only, hence .mjs). With TEST_POSTGRES_URL already set, uses that server instead.
import { startEmbeddedPostgres } from '../../scripts/embedded-postgres.mjs';

export default async function globalSetup() {
  if (process.env.TEST_POSTGRES_URL) return;
  const server = await startEmbeddedPostgres({ prefix: 'agency-api-pg-', postgresFlags: ['-c', 'max_connections=200'] });
  globalThis.__AGENCY_EMBEDDED_PG__ = server;
  process.env.TEST_POSTGRES_URL = server.url();
}
