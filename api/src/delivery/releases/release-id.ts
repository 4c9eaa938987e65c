import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** What a build stamp says of the build: when it was built, from which revision. */
export interface BuildStamp {
  builtAt?: Date;
  revision?: string;
}

/** The build stamp's reader (shared/webpack/build-stamp.js, which build-if-stale writes with). */
interface BuildStampModule {
  STAMP_FILE: string;
  gitRevision(repoRoot: string): string;
  /** A stamp's text (the file's content, as an uploaded build carries it). */
  parseBuildStamp(text: string): BuildStamp | undefined;
  readBuildStamp(dist: string): BuildStamp | undefined;
}

const buildStamp = createRequire(__filename)('@agency/shared/webpack/build-stamp.js') as BuildStampModule;

/** The file in a build folder that says when and from which revision it was built. */
export const BUILD_STAMP = buildStamp.STAMP_FILE;
export const { gitRevision, parseBuildStamp, readBuildStamp } = buildStamp;

/**
 * The app version the build was made from: `metaData.buildInfo.buildVersion` of its
 * mf-manifest.json (the module federation plugin writes the app's package.json version there,
 * for the shell as for the remotes), or undefined when it has none.
 */
export function buildVersion(files: ReadonlyMap<string, Buffer>): string | undefined {
  try {
    const manifest = JSON.parse(files.get('mf-manifest.json')?.toString('utf8') ?? '') as {
      metaData?: { buildInfo?: { buildVersion?: unknown } };
    };
    const version = manifest.metaData?.buildInfo?.buildVersion;
    return typeof version === 'string' && version ? version : undefined;
  } catch {
    return undefined;
  }
}

/**
 * For a build without a stamp: the newest modification time of its top-level files, so the same
 * build always gets the same id.
 */
export function filesTime(dist: string): Date {
  let newest = 0;
  for (const entry of fs.readdirSync(dist, { withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(dist, entry.name)).mtimeMs);
  }
  return new Date(Math.floor(newest / 1000) * 1000);
}

/** `2026-11-22T06:15:00.123Z` → `20261122T061500Z` (UTC, to the second). */
export function compactTime(date: Date): string {
  return date.toISOString().replace(/\.\d+Z$/, 'Z').replace(/[-:]/g, '');
}

/** `1.0.0-6a9430b-20261122T061500Z`: sortable by eye, and says what was built from what. */
export function releaseId(version: string, revision: string, builtAt: Date): string {
  return `${version}-${revision}-${compactTime(builtAt)}`.replace(/[^0-9A-Za-z.+_-]/g, '_');
}

/** The id for a build whose base id is taken by different content: `<id>-2`, `<id>-3`, … */
export function suffixedId(base: string, attempt: number): string {
  return attempt < 2 ? base : `${base}-${attempt}`;
}
