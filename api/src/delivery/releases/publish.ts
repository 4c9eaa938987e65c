import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { entryFile, type AppName } from './apps';
import { BUILD_STAMP, releaseId, suffixedId } from './release-id';
import { syncDir, writeNewFileSynced } from './state';
import { appReleasesDir, RELEASE_FILE, type ReleaseInfo, type ReleaseMetadata } from './store';

export interface NewRelease {
  app: AppName;
  /** The build folder to publish. */
  dist: string;
  version: string;
  revision: string;
  builtAt: Date;
  publishedAt: Date;
}

async function filesUnder(dir: string, prefix = ''): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await fs.readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const relative = path.join(prefix, entry.name);
    if (entry.isDirectory()) files.push(...(await filesUnder(dir, relative)));
    else files.push(relative);
  }
  return files.sort();
}

/**
 * A hash of the folder's file names and contents (release.json aside), to tell whether a taken id
 * holds the same build. With `sync`, every file is also fsynced: a release must be complete on
 * disk before state.json can name it.
 */
async function contentDigest(dir: string, sync = false): Promise<string> {
  const hash = createHash('sha256');
  for (const file of await filesUnder(dir)) {
    if (file === RELEASE_FILE) continue;
    const handle = await fs.open(path.join(dir, file), 'r');
    try {
      hash.update(`${file}\0`).update(await handle.readFile()).update('\0');
      if (sync) await handle.sync();
    } finally {
      await handle.close();
    }
  }
  return hash.digest('hex');
}

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}

/**
 * Copies a build into a new, immutable release folder and returns it. The copy is made in a temp
 * folder next to the releases and renamed into place, so a release appears whole or not at all.
 * When the id is taken by the same content, that release is returned (`created: false`); when it
 * is taken by other content, a suffix is added. An existing release is never overwritten.
 */
export async function createRelease(releasesDir: string, input: NewRelease): Promise<{ release: ReleaseInfo; created: boolean }> {
  const entry = path.join(input.dist, entryFile(input.app));
  if (!(await exists(entry))) throw new Error(`${entry} does not exist: is ${input.dist} a build of ${input.app}?`);
  const appDir = appReleasesDir(releasesDir, input.app);
  await fs.mkdir(appDir, { recursive: true });
  const temp = path.join(appDir, `.tmp-${randomBytes(6).toString('hex')}`);
  try {
    await fs.cp(input.dist, temp, {
      recursive: true,
      dereference: true,
      errorOnExist: true,
      // The stamp says when this dist was built; the release has its own metadata.
      filter: (source) => source !== path.join(input.dist, BUILD_STAMP),
    });
    const digest = await contentDigest(temp, true);
    const base = releaseId(input.version, input.revision, input.builtAt);
    for (let attempt = 1; ; attempt += 1) {
      const id = suffixedId(base, attempt);
      const target = path.join(appDir, id);
      if (await exists(target)) {
        if ((await contentDigest(target)) !== digest) continue;
        const metadata = JSON.parse(await fs.readFile(path.join(target, RELEASE_FILE), 'utf8')) as ReleaseMetadata;
        return { release: { ...metadata, dir: target }, created: false };
      }
      const metadata: ReleaseMetadata = {
        id,
        app: input.app,
        version: input.version,
        revision: input.revision,
        builtAt: input.builtAt.toISOString(),
        publishedAt: input.publishedAt.toISOString(),
      };
      await writeNewFileSynced(path.join(temp, RELEASE_FILE), `${JSON.stringify(metadata, null, 2)}\n`);
      await syncDir(temp);
      // rename() refuses a non-empty target, so even a racing publisher cannot overwrite one.
      await fs.rename(temp, target);
      await syncDir(appDir);
      return { release: { ...metadata, dir: target }, created: true };
    }
  } finally {
    await fs.rm(temp, { recursive: true, force: true });
  }
}
