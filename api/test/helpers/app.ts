import os from 'node:os';
import path from 'node:path';
import { VACANCY_TITLES } from '@agency/shared';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildAppOptions } from '../../src/app';
import { DEFAULT_PAGE_CACHE_MB, loadContentConfig, type AppConfig } from '../../src/platform/config';
import { createDatabase, type Database } from '../../src/platform/db/connection';
import { createMigratedTestDatabase, type TestDatabase } from './database';
import { httpRequest, type HttpRequestOptions, type HttpResponse } from './http';

/** A static root without any build, so the API suites do not depend on the front ends. */
export const EMPTY_STATIC_ROOT = path.join(os.tmpdir(), 'agency-api-no-static-root');
/** A releases folder that does not exist: nothing to import. */
export const NO_RELEASES_DIR = path.join(os.tmpdir(), 'agency-api-no-releases');
/** An artifact store no test writes to (apps without releases read nothing from it). */
export const EMPTY_RELEASE_STORE = `file:${path.join(os.tmpdir(), 'agency-api-empty-release-store')}`;
/** The repo's own articles (content/blog): what a fresh site publishes. */
export const REPO_CONTENT_DIR = loadContentConfig({}).contentDir;
/**
 * Prepared covers, shared by the suites of one Jest worker: names are content hashes, so runs never
 * clash. One folder per worker, because a worker runs one suite at a time: a suite that checks a
 * refused upload left no file behind must not see another project's suite store one meanwhile.
 */
export const TEST_MEDIA_DIR = path.join(os.tmpdir(), `agency-api-test-media-${process.env.JEST_WORKER_ID ?? 'main'}`);

/** The public origin test apps are configured with (SITE_URL): never where they listen. */
export const TEST_SITE_URL = 'https://khvylia.example';

export function testConfig(databaseUrl: string, overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    port: 0,
    host: '127.0.0.1',
    databaseUrl,
    logLevel: process.env.TEST_LOG_LEVEL ?? 'silent',
    logFormat: 'json',
    // Lifted for every suite except the rate-limit one, which sets its own.
    rateLimitMax: 1_000_000,
    rateLimitWindow: 60_000,
    trustProxy: false,
    staticRoot: EMPTY_STATIC_ROOT,
    remoteUrls: {},
    siteUrl: TEST_SITE_URL,
    pageCacheMaxBytes: DEFAULT_PAGE_CACHE_MB * 1024 * 1024,
    releasesDir: NO_RELEASES_DIR,
    releaseStore: EMPTY_RELEASE_STORE,
    releaseCacheDir: path.join(os.tmpdir(), 'agency-api-test-release-cache'),
    releaseUploadMaxBytes: 100 * 1024 * 1024,
    s3: { region: 'us-east-1', forcePathStyle: false },
    releasesKeep: 5,
    shutdownTimeoutMs: 10_000,
    leads: {},
    // Lifted like the submissions' limit; the telemetry suite sets its own.
    telemetry: { enabled: true, sample: 1, retentionDays: 14, rateLimitPerMinute: 1_000_000 },
    // Lifted like the submissions' limit; the staff sign-in suite sets its own.
    staff: { signInRateLimitPerMinute: 1_000_000, overdueCheckSeconds: 60, weeklyReportCheckSeconds: 300 },
    // Off: the backup suites turn them on with a store and a key of their own.
    backup: { s3: { region: 'us-east-1', forcePathStyle: false }, intervalMs: 5 * 60_000, verifyIntervalMs: 24 * 3_600_000, keyFile: path.join(os.tmpdir(), 'agency-api-test-backup-key.txt') },
    contentDir: REPO_CONTENT_DIR,
    mediaDir: TEST_MEDIA_DIR,
    ...overrides,
  };
}

export interface TestContext {
  app: FastifyInstance;
  /** A second connection for assertions on what is stored. */
  db: Database;
  testDb: TestDatabase;
  /** http://127.0.0.1:<port> of the listening app. */
  baseUrl: string;
  request(method: string, path: string, options?: HttpRequestOptions): Promise<HttpResponse>;
  close(): Promise<void>;
}

/**
 * A fresh migrated database (or `given`, which the caller then drops), an app on it (seeded)
 * listening on a free port of 127.0.0.1, and a second connection to inspect what is stored.
 * `logStream` receives the app's log lines (with a `logLevel` among the overrides).
 */
export async function startTestApp(overrides: Partial<AppConfig> = {}, given?: TestDatabase, { logStream, clock }: Pick<BuildAppOptions, 'logStream' | 'clock'> = {}): Promise<TestContext> {
  const testDb = given ?? (await createMigratedTestDatabase());
  const app = await buildApp({ config: testConfig(testDb.url, overrides), logStream, clock });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  const db = createDatabase(testDb.url, { poolSize: 2 });
  return {
    app,
    db,
    testDb,
    baseUrl,
    request: (method, path, options) => httpRequest(baseUrl, method, path, options),
    async close() {
      await app.close();
      await db.destroy();
      if (!given) await testDb.drop();
    },
  };
}

export const VALID_CONTACT = {
  name: 'Олена Петренко',
  email: 'olena@example.com',
  phone: '+380 (67) 123-45-67',
  company: 'ТОВ «Смачна кава»',
  service_type: 'smm',
  message: 'Доброго дня! Хочемо замовити ведення Instagram для кавʼярні.',
  website: '',
};

export const VALID_APPLICATION = {
  name: 'Андрій Коваль',
  email: 'andrii.koval@example.com',
  phone: '067 123 45 67',
  city: 'Львів',
  position: VACANCY_TITLES[1] ?? '',
  resume_text: 'Три роки веду сторінки ресторанів, знаю Meta Business Suite.',
  website: '',
};
