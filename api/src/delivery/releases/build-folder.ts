import fs from 'node:fs/promises';
import path from 'node:path';
import type { ReleaseBuild } from './commands';
import { BUILD_STAMP, filesTime, readBuildStamp } from './release-id';

/**
 * The regular files under `dir`, as sorted `/`-separated relative paths. Symbolic links and
 * special files are skipped, so nothing outside the folder is ever taken into a release.
 */
export async function regularFiles(dir: string, prefix = ''): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await fs.readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...(await regularFiles(dir, relative)));
    else if (entry.isFile()) files.push(relative);
  }
  return files.sort();
}

/**
 * A build folder (an app's dist) as a build to publish: every file but the build stamp, which
 * says when and from what it was built (a build without one is dated by its files).
 */
export async function readBuildFolder(dist: string): Promise<ReleaseBuild> {
  try {
    await fs.access(dist);
  } catch {
    throw new Error(`${dist} does not exist: build the app first, or name its build with --dist`);
  }
  const files = new Map<string, Buffer>();
  for (const file of await regularFiles(dist)) {
    if (file !== BUILD_STAMP) files.set(file, await fs.readFile(path.join(dist, file)));
  }
  const stamp = readBuildStamp(dist);
  return { files, stamp: { builtAt: stamp?.builtAt ?? filesTime(dist), revision: stamp?.revision }, source: dist };
}
