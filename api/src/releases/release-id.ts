import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Written by scripts/build-if-stale.mjs into each dist folder; holds the build's ISO time. */
export const BUILD_STAMP = '.build-stamp';

function git(repoRoot: string, args: string[]): string | undefined {
  const result = spawnSync('git', args, { cwd: repoRoot, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/**
 * The checkout's short revision, `-dirty` when it has uncommitted changes (the build may then
 * not match the commit), or `unknown` outside a git checkout (e.g. a Docker build context).
 */
export function gitRevision(repoRoot: string): string {
  const revision = git(repoRoot, ['rev-parse', '--short', 'HEAD']);
  if (!revision) return 'unknown';
  const changes = git(repoRoot, ['status', '--porcelain']);
  return changes ? `${revision}-dirty` : revision;
}

/**
 * When the build in `dist` was made: the build stamp if there is one, else the newest
 * modification time of its top-level files. The same build therefore always gets the same id.
 */
export function buildTime(dist: string): Date {
  try {
    const stamp = new Date(fs.readFileSync(path.join(dist, BUILD_STAMP), 'utf8').trim());
    if (!Number.isNaN(stamp.getTime())) return stamp;
  } catch {
    // No stamp (a CI artifact, or a build not made by build-if-stale).
  }
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
