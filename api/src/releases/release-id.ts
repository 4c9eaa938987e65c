import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Written by scripts/build-if-stale.mjs into each dist folder: JSON `{ "builtAt": ISO time,
 * "revision": "<git short rev>[-dirty]" }` (older builds hold just the ISO time).
 */
export const BUILD_STAMP = '.build-stamp';

function git(repoRoot: string, args: string[]): string | undefined {
  const result = spawnSync('git', args, { cwd: repoRoot, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/**
 * The checkout's short revision, `-dirty` when it has uncommitted changes (the build may then
 * not match the commit), or `unknown` outside a git checkout (e.g. a Docker build context).
 * scripts/build-if-stale.mjs computes the stamp's revision the same way.
 */
export function gitRevision(repoRoot: string): string {
  const revision = git(repoRoot, ['rev-parse', '--short', 'HEAD']);
  if (!revision) return 'unknown';
  const changes = git(repoRoot, ['status', '--porcelain']);
  return changes ? `${revision}-dirty` : revision;
}

/** What a build's stamp says about it; each part is undefined when the stamp does not say. */
export interface BuildStamp {
  builtAt?: Date;
  revision?: string;
}

function validDate(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** The build's stamp (JSON, or a plain ISO time from older builds), or undefined without a readable one. */
export function readBuildStamp(dist: string): BuildStamp | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dist, BUILD_STAMP), 'utf8').trim();
  } catch {
    // No stamp (a build not made by build-if-stale).
    return undefined;
  }
  if (!text.startsWith('{')) return { builtAt: validDate(text) };
  try {
    const parsed = JSON.parse(text) as { builtAt?: unknown; revision?: unknown };
    const revision = typeof parsed.revision === 'string' && parsed.revision ? parsed.revision : undefined;
    return { builtAt: validDate(parsed.builtAt), revision };
  } catch {
    return undefined;
  }
}

/**
 * The app version the build was made from: `metaData.buildInfo.buildVersion` of its
 * mf-manifest.json (the module federation plugin writes the app's package.json version there,
 * for the shell as for the remotes), or undefined when it has none.
 */
export function buildVersion(dist: string): string | undefined {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(dist, 'mf-manifest.json'), 'utf8')) as {
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
