import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { typeset } from '@agency/shared';
import type { Database, Db } from '../../platform/db/connection';
import { insertBlogPost, listBlogPostSources, storeBlogPostMarkdown, unpublishBlogPosts, updateBlogPost, type NewBlogPost } from './content-repository';
import { prepareCover } from './cover-images';
import { ArticleError, articleDate, parseFrontMatter, splitFrontMatter } from './front-matter';
import { renderArticle } from './markdown';
import { sanitizeBlogHtml } from './sanitize';

/**
 * Publishing from files: every `*.md` in the content folder is an article (front matter and
 * Markdown). A sync makes the published blog match the folder: new files are inserted, changed
 * ones updated (matched by slug), removed ones (and drafts) unpublished. A file that cannot be
 * read is refused and reported, and its post, if one exists, is left as it was. Nothing is
 * written when nothing changed. Articles the staff console owns (written or taken over there) are
 * never written nor unpublished by a sync: a file with such an article's slug is reported and left.
 */

export interface SyncOptions {
  contentDir: string;
  mediaDir: string;
}

export interface RefusedFile {
  /** Relative to the content folder. */
  file: string;
  field: string;
  message: string;
}

export interface SyncReport {
  added: string[];
  updated: string[];
  unpublished: string[];
  unchanged: string[];
  drafts: string[];
  refused: RefusedFile[];
  /** Files whose slug is a console article's: the console owns it, the file is not applied. */
  console: string[];
}

interface Article {
  file: string;
  post: NewBlogPost & { source_hash: string };
}

export class ContentFolderMissing extends Error {}

/** Article files: `*.md` at the top of the folder; README.md and names starting with `_` are notes. */
export function articleFiles(contentDir: string): string[] {
  return fs
    .readdirSync(contentDir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md') && !entry.name.startsWith('_') && entry.name.toLowerCase() !== 'readme.md')
    .map((entry) => entry.name)
    .sort();
}

/** The hash of everything a sync writes for a post: equal hashes mean nothing to update. */
function sourceHash(post: NewBlogPost): string {
  const { slug, title, excerpt, category, author, image_url, content, created_at } = post;
  return createHash('sha256')
    .update(JSON.stringify([slug, title, excerpt, category, author, image_url, content, created_at.toISOString()]))
    .digest('hex');
}

/**
 * A post as it is written: its HTML through the blog's allow-list (again: the Markdown's own HTML
 * was already let through it), so nothing unsafe is ever stored. The source hash stays that of
 * the article as read.
 */
function sanitized<Post extends NewBlogPost>(post: Post): Post {
  return { ...post, content: sanitizeBlogHtml(post.content) };
}

/** What one file says about its slug even when the rest is broken, so its post is kept. */
function slugHint(contentDir: string, file: string): string {
  let source = '';
  try {
    source = fs.readFileSync(path.join(contentDir, file), 'utf8');
  } catch {
    // Unreadable: the file name is all there is.
  }
  return /^slug:\s*["']?([a-z0-9-]+)/m.exec(source)?.[1] ?? path.basename(file, '.md');
}

/**
 * Any failure while reading one file is that file's refusal, never the whole sync's: the server
 * syncs at start and a bad article must not keep the site down.
 */
function asRefusal(file: string, error: unknown): RefusedFile {
  if (error instanceof ArticleError) return { file, field: error.field, message: error.message };
  const reason = error instanceof Error ? error.message : String(error);
  return { file, field: 'file', message: `файл не вдалося обробити: ${reason}` };
}

async function readArticle(file: string, options: SyncOptions): Promise<Article | 'draft'> {
  const fullPath = path.join(options.contentDir, file);
  const source = fs.readFileSync(fullPath, 'utf8');
  const { yaml, body } = splitFrontMatter(source);
  const meta = parseFrontMatter(yaml);
  if (meta.draft) return 'draft';
  if (body.trim() === '') throw new ArticleError('text', 'у статті немає тексту');
  // Title, excerpt and text get the site's typography (apostrophe, «», no-break spaces).
  const content = renderArticle(body);
  const image_url = await prepareCover(fullPath, meta.cover, options.contentDir, options.mediaDir, meta.slug);
  const post: NewBlogPost = {
    slug: meta.slug,
    title: typeset(meta.title),
    excerpt: typeset(meta.excerpt),
    category: meta.category,
    author: meta.author,
    image_url,
    content,
    created_at: articleDate(meta.date),
  };
  // The Markdown is kept for the console (taking an article over) and exports; the hash stays
  // that of what visitors see, so storing it rewrites no post.
  return { file, post: { ...post, markdown: body, source_hash: sourceHash(post) } };
}

/** Reads every article of the folder (covers are prepared here, before any database work). */
async function readFolder(options: SyncOptions) {
  const articles = new Map<string, Article>();
  const drafts: string[] = [];
  const refused: RefusedFile[] = [];
  /** Slugs of refused files: their posts stay as they are. */
  const kept = new Set<string>();
  for (const file of articleFiles(options.contentDir)) {
    try {
      const article = await readArticle(file, options);
      if (article === 'draft') {
        drafts.push(file);
        continue;
      }
      const earlier = articles.get(article.post.slug);
      if (earlier) throw new ArticleError('slug', `slug «${article.post.slug}» уже має ${earlier.file}`);
      articles.set(article.post.slug, article);
    } catch (error) {
      refused.push(asRefusal(file, error));
      kept.add(slugHint(options.contentDir, file));
    }
  }
  return { articles, drafts, refused, kept };
}

/**
 * Makes the blog match the content folder, under the database's write lock (several servers
 * starting together sync one after another; the later ones find nothing to do).
 */
export async function syncContent(database: Database, options: SyncOptions): Promise<SyncReport> {
  if (!fs.existsSync(options.contentDir) || !fs.statSync(options.contentDir).isDirectory()) {
    // Never read a missing folder as "every article was removed".
    throw new ContentFolderMissing(`Теки статей немає: ${options.contentDir}`);
  }
  const { articles, drafts, refused, kept } = await readFolder(options);
  const report: SyncReport = { added: [], updated: [], unpublished: [], unchanged: [], drafts, refused, console: [] };
  await database.dialect.withWriteLock(database.kysely, async (trx) => {
    const db: Db = { kysely: trx, dialect: database.dialect };
    const now = new Date();
    const existing = new Map((await listBlogPostSources(db)).map((row) => [row.slug, row]));
    for (const [slug, { file, post }] of articles) {
      const row = existing.get(slug);
      if (row?.owner === 'console') {
        report.console.push(file);
      } else if (!row) {
        await insertBlogPost(db, sanitized(post));
        report.added.push(slug);
      } else if (row.source_hash !== post.source_hash || !row.published) {
        await updateBlogPost(db, row.id, sanitized(post), now);
        report.updated.push(slug);
      } else {
        if (!row.has_markdown) await storeBlogPostMarkdown(db, row.id, post.markdown ?? '');
        report.unchanged.push(slug);
      }
    }
    const gone = [...existing.values()].filter((row) => row.owner === 'files' && row.published && !articles.has(row.slug) && !kept.has(row.slug));
    await unpublishBlogPosts(
      db,
      gone.map((row) => row.id),
      now,
    );
    report.unpublished.push(...gone.map((row) => row.slug));
  });
  return report;
}

/** Whether a sync changed what the site shows. */
export function changedAnything(report: SyncReport): boolean {
  return report.added.length + report.updated.length + report.unpublished.length > 0;
}
