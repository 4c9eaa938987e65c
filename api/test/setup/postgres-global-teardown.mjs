// Stops the server postgres-global-setup.mjs started (if it started one) and deletes its folder.
export default async function globalTeardown() {
  const server = globalThis.__AGENCY_EMBEDDED_PG__;
  if (!server) return;
  globalThis.__AGENCY_EMBEDDED_PG__ = undefined;
  await server.stop();
  delete process.env.TEST_POSTGRES_URL;
}
