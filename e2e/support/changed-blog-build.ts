import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
