import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import type { Db } from '../../platform/db/connection';
import { articleFiles } from './content-sync';

/**
 * `npm run content -- export <dir>`: every article, the console's and the folder's, written as
 * the content folder keeps them (front matter and Markdown, its cover under images/), so a team
 * that keeps articles in git loses nothing. A console article is written as its working copy; one
 * that is not live is marked `draft: true`. A file already in <dir> with an article's slug is
 * rewritten in place, so exporting into the content folder never leaves two files for one slug.
 */

export interface ExportReport {
  written: string[];
  /** Articles that could not be written, with why. */
  skipped: { slug: string; message: string }[];
}

interface ExportedArticle {
  slug: string;
  title: string;
  category: string;
  author: string;
  date: string;
  excerpt: string;
  cover: string;
  markdown: string | null;
  draft: boolean;
}

const MEDIA_URL_PREFIX = '/media/';

async function readArticles(db: Db): Promise<ExportedArticle[]> {
  const rows = await db.kysely
    .selectFrom('blog_posts')
    .leftJoin('article_drafts', 'article_drafts.post_id', 'blog_posts.id')
    .select([
      'blog_posts.slug',
      'blog_posts.title',
      'blog_posts.category',
      'blog_posts.author',
      'blog_posts.excerpt',
      'blog_posts.image_url',
      'blog_posts.markdown',
      'blog_posts.created_at',
      'blog_posts.unpublished_at',
      'article_drafts.post_id as draft_id',
      'article_drafts.title as draft_title',
      'article_drafts.category as draft_category',
      'article_drafts.author as draft_author',
      'article_drafts.excerpt as draft_excerpt',
      'article_drafts.cover_url as draft_cover',
      'article_drafts.markdown as draft_markdown',
      'article_drafts.created_at as draft_created_at',
      'article_drafts.first_published_at',
      'article_drafts.publish_at',
    ])
    .orderBy('blog_posts.id')
    .execute();
  return rows.map((row) => {
    const live = row.unpublished_at === null;
    if (row.draft_id === null) {
      return { slug: row.slug, title: row.title, category: row.category, author: row.author, date: db.dialect.readTimestamp(row.created_at), excerpt: row.excerpt, cover: row.image_url, markdown: row.markdown, draft: !live };
    }
    return {
      slug: row.slug,
      title: row.draft_title!,
      category: row.draft_category!,
      author: row.draft_author!,
      date: row.first_published_at ?? row.publish_at ?? row.draft_created_at!,
      excerpt: row.draft_excerpt!,
      cover: row.draft_cover!,
      markdown: row.draft_markdown,
      draft: !live,
    };
  });
}

/** The slug each article file in `dir` declares (its front matter's `slug:` line). */
function filesBySlug(dir: string): Map<string, string> {
  const bySlug = new Map<string, string>();
  for (const file of articleFiles(dir)) {
    const slug = /^slug:\s*["']?([a-z0-9-]+)/m.exec(fs.readFileSync(path.join(dir, file), 'utf8'))?.[1];
    if (slug) bySlug.set(slug, file);
  }
  return bySlug;
}

/** Copies a served cover (and an SVG's JPEG twin for link previews) to <dir>/images; its path from the article. */
function copyCover(cover: string, dir: string, mediaDir: string): string {
  if (!cover.startsWith(MEDIA_URL_PREFIX)) return cover;
  const source = path.join(mediaDir, ...cover.slice(MEDIA_URL_PREFIX.length).split('/'));
  const images = path.join(dir, 'images');
  fs.mkdirSync(images, { recursive: true });
  const copies = [source, ...(source.endsWith('.svg') ? [source.replace(/\.svg$/, '.jpg')] : [])];
  for (const file of copies) {
    if (!fs.existsSync(file)) throw new Error(`обкладинки ${cover} немає в теці медіа`);
    fs.copyFileSync(file, path.join(images, path.basename(file)));
  }
  return `images/${path.basename(source)}`;
}

function kyivDay(iso: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Kyiv' }).format(new Date(iso));
}

export async function exportArticles(db: Db, { dir, mediaDir }: { dir: string; mediaDir: string }): Promise<ExportReport> {
  fs.mkdirSync(dir, { recursive: true });
  const existing = filesBySlug(dir);
  const report: ExportReport = { written: [], skipped: [] };
  for (const article of await readArticles(db)) {
    if (article.markdown === null) {
      report.skipped.push({ slug: article.slug, message: 'текст статті ще не зчитано з її файлу: запустіть npm run content -- sync' });
      continue;
    }
    let cover: string;
    try {
      cover = article.cover === '' ? '' : copyCover(article.cover, dir, mediaDir);
    } catch (error) {
      report.skipped.push({ slug: article.slug, message: (error as Error).message });
      continue;
    }
    const frontMatter = {
      title: article.title,
      slug: article.slug,
      category: article.category,
      author: article.author,
      date: article.date,
      excerpt: article.excerpt,
      cover,
      ...(article.draft && { draft: true }),
    };
    const file = existing.get(article.slug) ?? `${kyivDay(article.date)}-${article.slug}.md`;
    const body = article.markdown.startsWith('\n') ? article.markdown : `\n${article.markdown}`;
    fs.writeFileSync(path.join(dir, file), `---\n${stringify(frontMatter, { lineWidth: 0 })}---\n${body}`);
    report.written.push(file);
  }
  return report;
}
