// setupFiles of the api-postgres project: every test file gets its own database on the
// server started by postgres-global-setup.mjs (or the one given in TEST_POSTGRES_URL).
process.env.TEST_DIALECT = 'postgres';
if (!process.env.TEST_POSTGRES_URL) {
  throw new Error('TEST_POSTGRES_URL is not set: postgres-global-setup.mjs should have started a server');
}
