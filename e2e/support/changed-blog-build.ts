import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './site';

/** The URL of the blog's post page code (its exposed module's chunk), in whichever build. */
export const BLOG_POST_PAGE_CODE = /__federation_expose_BlogPostPage\.[0-9a-f]+\.js$/;

/** The blog post page's back link, and what the changed build says instead. */
export const OLD_BACK_LINK = 'Повернутися на головну';
export const NEW_BACK_LINK = 'До всіх новин агенції';

/** How TypeScript writes JSX text in the unminified server bundle: non-ASCII as `\uXXXX`. */
const escapedForJs = (text: string) =>
  [...text].map((char) => (char.charCodeAt(0) > 127 ? `\\u${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : char)).join('');

/**
 * A copy of the blog build whose back link says something else, as a rebuilt release would:
 * browser chunks and the server bundle alike. Precompressed copies of a changed file are dropped
 * (the server then sends the file itself), since they would still hold the old text.
 */
export function changedBlogBuild(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agency-blog-changed-'));
  cpSync(path.join(ROOT, 'mfe-blog/dist'), dir, { recursive: true });
  let changed = 0;
  const scripts = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.js'));
  for (const file of scripts) {
    const text = readFileSync(path.join(dir, file), 'utf8');
    const replaced = text.replaceAll(OLD_BACK_LINK, NEW_BACK_LINK).replaceAll(escapedForJs(OLD_BACK_LINK), escapedForJs(NEW_BACK_LINK));
    if (replaced === text) continue;
    writeFileSync(path.join(dir, file), replaced);
    for (const copy of ['.br', '.gz']) rmSync(path.join(dir, file + copy), { force: true });
    changed += 1;
  }
  if (changed < 2) throw new Error(`The built blog's browser chunks and server bundle should contain "${OLD_BACK_LINK}"`);
  return dir;
}

/**
 * Changes the blog's source in a copy of the repo (`repoDir`) as a developer would, so that its
 * next build says `to` where it said `from`. The blog's own tests are left alone.
 */
export function changeBlogSource(repoDir: string, from: string, to: string): void {
  const sources = path.join(repoDir, 'mfe-blog/src');
  let changed = 0;
  for (const file of readdirSync(sources, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.tsx') || file.endsWith('.test.tsx')) continue;
    const text = readFileSync(path.join(sources, file), 'utf8');
    if (!text.includes(from)) continue;
    writeFileSync(path.join(sources, file), text.replaceAll(from, to));
    changed += 1;
  }
  if (changed === 0) throw new Error(`No source file of the blog says "${from}"`);
}

/** What the teaser of throwingBlogBuild throws. */
export const TEASER_ERROR = 'BlogTeaser broke in this release';

/** The file of the teaser's component, from the repository's root. */
export const TEASER_SOURCE = 'mfe-blog/src/features/blog-teaser/BlogTeaser.tsx';

/** Where throwing builds are kept between suites and runs, one folder per state of their sources. */
const THROWING_BUILDS = path.join(os.tmpdir(), 'agency-throwing-blog');

// eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS, shared with build-if-stale
const { buildInputFiles } = require('../../scripts/build-inputs.cjs') as { buildInputFiles: (root: string, workspace: string) => string[] };

/** A hash of every file a build of the blog reads, as build-if-stale knows them (not its tests). */
function blogSourcesHash(): string {
  const hash = createHash('sha256');
  for (const file of buildInputFiles(ROOT, 'mfe-blog')) hash.update(`${file}\0`).update(readFileSync(path.join(ROOT, file))).update('\0');
  return hash.update(TEASER_ERROR).digest('hex').slice(0, 16);
}

/**
 * A real production build of the blog whose teaser throws as it renders in the browser, made from
 * a changed copy of its source (the repository's own `shared` and `node_modules` linked in), so
 * its hidden source maps point at the changed file. Resolves with a copy of the build folder of
 * the caller's own, the line of the `throw` in TEASER_SOURCE, and the folder to remove afterwards.
 * A build takes half a minute of CPU: it is made once for each state of the blog's sources and
 * kept (in the system's temporary folder) for every suite and run after.
 */
export function throwingBlogBuild(): { dist: string; line: number; dir: string } {
  const kept = path.join(THROWING_BUILDS, blogSourcesHash());
  if (!existsSync(path.join(kept, 'line.json'))) buildThrowingBlog(kept);
  const { line } = JSON.parse(readFileSync(path.join(kept, 'line.json'), 'utf8')) as { line: number };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agency-blog-throwing-'));
  cpSync(path.join(kept, 'dist'), path.join(dir, 'dist'), { recursive: true });
  return { dist: path.join(dir, 'dist'), line, dir };
}

/** Builds the throwing blog into `kept` (its `dist` and `line.json`), replacing older builds. */
function buildThrowingBlog(kept: string): void {
  mkdirSync(THROWING_BUILDS, { recursive: true });
  const dir = mkdtempSync(path.join(THROWING_BUILDS, 'building-'));
  try {
    for (const linked of ['node_modules', 'shared']) symlinkSync(path.join(ROOT, linked), path.join(dir, linked));
    for (const file of ['tsconfig.json', 'package.json']) cpSync(path.join(ROOT, file), path.join(dir, file));
    cpSync(path.join(ROOT, 'mfe-blog'), path.join(dir, 'mfe-blog'), {
      recursive: true,
      filter: (source) => !/[\\/](?:dist|node_modules)$/.test(source),
    });
    const file = path.join(dir, TEASER_SOURCE);
    const lines = readFileSync(file, 'utf8').split('\n');
    const start = lines.findIndex((line) => line.startsWith('export default function BlogTeaser('));
    if (start < 0) throw new Error(`${TEASER_SOURCE} no longer declares the BlogTeaser component`);
    // In the browser only: the teaser renders there alone (it is below the first screen).
    lines.splice(start + 1, 0, `  if (typeof window !== 'undefined') throw new Error('${TEASER_ERROR}');`);
    writeFileSync(file, lines.join('\n'));
    const build = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/webpack/bin/webpack.js'), '--mode', 'production'], {
      cwd: path.join(dir, 'mfe-blog'),
      encoding: 'utf8',
    });
    if (build.status !== 0) throw new Error(`The changed blog did not build:\n${build.stdout}\n${build.stderr}`);
    const ready = mkdtempSync(path.join(THROWING_BUILDS, 'ready-'));
    renameSync(path.join(dir, 'mfe-blog/dist'), path.join(ready, 'dist'));
    writeFileSync(path.join(ready, 'line.json'), JSON.stringify({ line: start + 2 }));
    // Builds of other sources (and what interrupted runs left) are of no more use once an hour old:
    // another checkout's run may be using a newer one.
    for (const entry of readdirSync(THROWING_BUILDS)) {
      const other = path.join(THROWING_BUILDS, entry);
      if (other !== kept && other !== ready && other !== dir && Date.now() - statSync(other).mtimeMs > 3_600_000) rmSync(other, { recursive: true, force: true });
    }
    // A suite building the same at once may have won.
    try {
      renameSync(ready, kept);
    } catch {
      rmSync(ready, { recursive: true, force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
