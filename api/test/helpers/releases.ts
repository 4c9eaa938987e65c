import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, type AppConfig } from '../../src/platform/config';
import { createDatabase, type Database } from '../../src/platform/db/connection';
import { FileObjectStore } from '../../src/platform/object-store/file-object-store';
import { APP_NAMES, appFolder, distDir, isRemote, type AppName } from '../../src/delivery/releases/apps';
import { readBuildFolder } from '../../src/delivery/releases/build-folder';
import { publish, type ReleaseBuild, type ReleaseContext } from '../../src/delivery/releases/commands';
import { loadAppReleases } from '../../src/delivery/releases/release-repository';
import { startTestApp, type TestContext } from './app';
import { createMigratedTestDatabase, type TestDatabase } from './database';

/** What the real builds share today (shell and remotes alike). */
export const CURRENT_VERSIONS: Record<string, string> = {
  react: '19.3.1',
  'react-dom': '19.3.1',
  'react-router': '7.18.5',
  'react-router-dom': '7.18.5',
  'react-toastify': '11.0.5',
  axios: '1.21.1',
};

export interface FixtureBuild {
  /** Package → version the build bundles (and provides, for the shell). */
  versions?: Record<string, string>;
  /** Package → range the build requires; defaults to `^<version>`. */
  required?: Record<string, string>;
  /** Text that makes this build's files differ from another's. */
  label?: string;
  /**
   * Written as the build stamp (plain ISO time, or JSON `{ builtAt, revision }`), which fixes the
   * id's build time. By default a revision only, as every build of build-if-stale carries one: a
   * build without (the release command then asks git for the checkout's) is written on purpose.
   */
  stamp?: string;
  /** Written to the manifest's `metaData.buildInfo.buildVersion`, as the webpack plugin does. */
  buildVersion?: string;
  /** Extra files (name → content). */
  files?: Record<string, string>;
}

/** The stamp of a fixture build that names none: its revision, and the build time left to the publish. */
const FIXTURE_STAMP = JSON.stringify({ revision: 'f1x7ure' });

/** An `mf-manifest.json` `shared` list shaped like the real one (with a `react-dom/client` subpath). */
function sharedList(app: AppName, build: FixtureBuild) {
  const versions = build.versions ?? CURRENT_VERSIONS;
  const entries = Object.entries(versions).map(([name, version]) => ({
    id: `agency_${app}:${name}`,
    name,
    version,
    singleton: true,
    requiredVersion: build.required?.[name] ?? `^${version}`,
  }));
  if (versions['react-dom']) {
    entries.push({ id: `agency_${app}:react-dom/client`, name: 'react-dom/client', version: versions['react-dom'], singleton: false, requiredVersion: `^${versions['react-dom']}` });
  }
  return entries;
}

/** The file names a fixture build of the app contains (chunk names carry a content hash). */
export function fixtureFiles(app: AppName, build: FixtureBuild = {}): Record<string, string> {
  const label = build.label ?? 'v1';
  const metaData = build.buildVersion ? { metaData: { name: `agency_${app}`, buildInfo: { buildVersion: build.buildVersion, buildName: `@agency/${app}` } } } : {};
  const manifest = JSON.stringify({ id: `agency_${app}`, name: `agency_${app}`, ...metaData, shared: sharedList(app, build) });
  const files: Record<string, string> = isRemote(app)
    ? { 'mf-manifest.json': manifest, 'remoteEntry.js': `var agency_${app}; // ${label}`, 'chunk.0123abcd45.js': `chunk("${label}")` }
    : {
        'mf-manifest.json': manifest,
        'index.html': `<!doctype html><html lang="uk"><body><div id="root" data-build="${label}"></div></body></html>`,
        'main.3f2a9c1b7d.js': `console.log("shell ${label}")`,
      };
  files[`assets/logo.${label === 'v1' ? 'aaaaaaaa11' : 'bbbbbbbb22'}.svg`] = `<svg data-build="${label}"/>`;
  files[`only-${label}.0a1b2c3d4e.js`] = `only("${label}")`;
  files['.build-stamp'] = build.stamp ?? FIXTURE_STAMP;
  return { ...files, ...build.files };
}

/** Writes a fixture build into `dir` (replacing what was there, as webpack's `clean` does). */
export function writeBuild(dir: string, app: AppName, build: FixtureBuild = {}): string {
  fs.rmSync(dir, { recursive: true, force: true });
  for (const [file, content] of Object.entries(fixtureFiles(app, build))) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), content);
  }
  return dir;
}

export interface ReleaseFixture {
  /** A STATIC_ROOT with a built shell (shell/dist) and the dist folders of every remote. */
  staticRoot: string;
  /** The artifact store's folder, and its RELEASE_STORE value. */
  storeDir: string;
  releaseStore: string;
  /** A scratch folder for builds to publish with --dist. */
  scratch: string;
  /** The database the release state lives in (a server started by setUpReleaseSuite shares it). */
  testDb: TestDatabase;
  db: Database;
  context: ReleaseContext;
  /** The settings a server (or the release command's environment) on this fixture needs. */
  config: Pick<AppConfig, 'staticRoot' | 'releaseStore' | 'releaseCacheDir' | 'databaseUrl'>;
  env: Record<string, string>;
  /** The context's clock (a second further each time the context reads it), without moving it. */
  time(): number;
  /** Moves the context's clock `ms` ahead; returns its new time. */
  later(ms: number): number;
  /** Writes a build into a fresh scratch folder and returns that folder. */
  build(app: AppName, build?: FixtureBuild): string;
  /** Writes a build into a fresh scratch folder and reads it as a build to publish. */
  buildOf(app: AppName, build?: FixtureBuild): Promise<ReleaseBuild>;
  cleanup(): Promise<void>;
}

export async function createReleaseFixture(): Promise<ReleaseFixture> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-releases-'));
  const staticRoot = path.join(base, 'site');
  const storeDir = path.join(base, 'store');
  const scratch = path.join(base, 'builds');
  for (const app of APP_NAMES) writeBuild(distDir(staticRoot, app), app, { label: 'dist' });
  const testDb = await createMigratedTestDatabase();
  const db = createDatabase(testDb.url, { poolSize: 2 });
  let count = 0;
  // A clock a second apart per call, so "newest first" never depends on timing.
  let time = Date.parse('2026-01-01T00:00:00Z');
  const build = (app: AppName, fixture?: FixtureBuild) => writeBuild(path.join(scratch, `${appFolder(app)}-${(count += 1)}`), app, fixture);
  const releaseStore = `file:${storeDir}`;
  const releaseCacheDir = path.join(base, 'cache');
  return {
    staticRoot,
    storeDir,
    releaseStore,
    scratch,
    testDb,
    db,
    context: {
      db,
      store: new FileObjectStore(storeDir),
      staticRoot,
      remoteUrls: {},
      keep: 5,
      repoRoot: REPO_ROOT,
      actor: 'cli:test@fixture',
      now: () => new Date((time += 1000)),
    },
    config: { staticRoot, releaseStore, releaseCacheDir, databaseUrl: testDb.url },
    time: () => time,
    later: (ms) => (time += ms),
    env: { STATIC_ROOT: staticRoot, RELEASE_STORE: releaseStore, RELEASE_CACHE_DIR: releaseCacheDir, DATABASE_URL: testDb.url },
    build,
    buildOf: (app, fixture) => readBuildFolder(build(app, fixture)),
    cleanup: async () => {
      await db.destroy();
      await testDb.drop();
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}

export interface ReleaseSuite {
  fixture: ReleaseFixture;
  /** The server, started on the fixture's static root, database and release store. */
  ctx: TestContext;
}

/**
 * A release fixture and a server on it (with `overrides` of its settings) for the enclosing
 * `describe` (or file), stopped after it.
 * Read `fixture` and `ctx` inside tests and later hooks, once they have started.
 */
export function setUpReleaseSuite(overrides: Partial<AppConfig> = {}): ReleaseSuite {
  const suite = {} as ReleaseSuite;
  beforeAll(async () => {
    suite.fixture = await createReleaseFixture();
    suite.ctx = await startTestApp({ ...suite.fixture.config, ...overrides }, suite.fixture.testDb);
  });
  afterAll(async () => {
    await suite.ctx?.close();
    await suite.fixture?.cleanup();
  });
  return suite;
}

/** Publishes a fixture build and returns the new current release id. */
export async function publishFixture(fixture: ReleaseFixture, app: string, build: FixtureBuild = {}, keep?: number): Promise<string> {
  await publish(fixture.context, app, await fixture.buildOf(app, build), keep);
  const { current } = await loadAppReleases(fixture.db, app);
  if (!current) throw new Error('no current release');
  return current.id;
}
