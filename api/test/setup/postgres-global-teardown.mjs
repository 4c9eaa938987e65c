import fs from 'node:fs/promises';

export default async function globalTeardown() {
  const started = globalThis.__AGENCY_EMBEDDED_PG__;
  if (!started) return;
  globalThis.__AGENCY_EMBEDDED_PG__ = undefined;
  await started.pg.stop();
  await fs.rm(started.parent, { recursive: true, force: true });
  delete process.env.TEST_POSTGRES_URL;
}
