// The api-postgres project's global setup: the builds brought up to date, as for SQLite, then the
// throwaway PostgreSQL server (each is a setup of its own: the embedded-postgres suite runs the
// second from a copy of the checkout).
import buildGlobalSetup from './build-global-setup.mjs';
import postgresGlobalSetup from './postgres-global-setup.mjs';

export default async function globalSetup() {
  buildGlobalSetup();
  await postgresGlobalSetup();
}
