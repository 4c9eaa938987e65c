// The stamp a build carries (`<app>/dist/.build-stamp`): when it was built and from which git
// revision. scripts/build-if-stale.mjs writes it (its modification time is what staleness is
// measured against); the release command reads it to name a release after the build itself, so
// an artifact published elsewhere keeps the revision it was built from.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const STAMP_FILE = '.build-stamp';

function git(repoRoot, args) {
  const result = spawnSync('git', args, { cwd: repoRoot, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/**
 * The checkout's short revision, `-dirty` when it has uncommitted changes (the build may then not
 * match the commit), or `unknown` outside a git checkout (e.g. a Docker build context).
 * @param {string} repoRoot
 * @returns {string}
 */
function gitRevision(repoRoot) {
  const revision = git(repoRoot, ['rev-parse', '--short', 'HEAD']);
  if (!revision) return 'unknown';
  return git(repoRoot, ['status', '--porcelain']) ? `${revision}-dirty` : revision;
}

/**
 * Marks `dist` as built: `{ "builtAt": ISO time, "revision": … }`.
 * @param {string} dist
 * @param {{ builtAt?: Date, revision: string }} stamp
 */
function writeBuildStamp(dist, { builtAt = new Date(), revision }) {
  fs.writeFileSync(path.join(dist, STAMP_FILE), `${JSON.stringify({ builtAt: builtAt.toISOString(), revision })}\n`);
}

function validDate(value) {
  if (typeof value !== 'string') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * What a stamp's text says (JSON, or a plain ISO time from older builds); each part undefined when
 * it does not say, the whole undefined when the text is not a stamp.
 * @param {string} text
 * @returns {{ builtAt?: Date, revision?: string } | undefined}
 */
function parseBuildStamp(text) {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return { builtAt: validDate(trimmed) };
  try {
    const parsed = JSON.parse(trimmed);
    const revision = typeof parsed.revision === 'string' && parsed.revision ? parsed.revision : undefined;
    return { builtAt: validDate(parsed.builtAt), revision };
  } catch {
    return undefined;
  }
}

/**
 * What `dist`'s stamp says (see parseBuildStamp); undefined without a readable stamp.
 * @param {string} dist
 * @returns {{ builtAt?: Date, revision?: string } | undefined}
 */
function readBuildStamp(dist) {
  let text;
  try {
    text = fs.readFileSync(path.join(dist, STAMP_FILE), 'utf8');
  } catch {
    // No stamp (a build not made by build-if-stale).
    return undefined;
  }
  return parseBuildStamp(text);
}

module.exports = { STAMP_FILE, gitRevision, writeBuildStamp, parseBuildStamp, readBuildStamp };
