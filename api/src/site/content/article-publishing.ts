import { typeset, type ArticleFields, type BlogPost } from '@agency/shared';
import type { Db } from '../../platform/db/connection';
import type { ArticleDraftsTable } from '../../platform/db/schema';
import { renderArticle } from './markdown';

/**
 * Publishing a console article: its working copy, rendered as a file's article is (the site's
 * typography on title and excerpt, the Markdown through the blog's allow-list), becomes the
 * post visitors see. Used by the console's "publish" and by the schedule, so both publish alike.
 */

/** The fields a working copy must have to go live, as an editor reads them. */
export const REQUIRED_FOR_PUBLISHING: Record<keyof ArticleFields, string> = {
  title: 'Вкажіть назву',
  category: 'Вкажіть категорію',
  excerpt: 'Вкажіть короткий опис',
  author: 'Вкажіть автора',
  cover: 'Додайте обкладинку',
  markdown: 'Напишіть текст статті',
};

/** What keeps a working copy from going live, by field; empty when it may. */
export function publishingProblems(fields: ArticleFields): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const [field, message] of Object.entries(REQUIRED_FOR_PUBLISHING)) {
    if (fields[field as keyof ArticleFields].trim() === '') problems[field] = message;
  }
  return problems;
}

/** The editable fields of a working copy row, as the contract names them. */
export function draftFields(row: Pick<ArticleDraftsTable, 'title' | 'category' | 'excerpt' | 'author' | 'cover_url' | 'markdown'>): ArticleFields {
  return { title: row.title, category: row.category, excerpt: row.excerpt, author: row.author, cover: row.cover_url, markdown: row.markdown };
}

/** The post-facing fields of a working copy, rendered as publishing renders them. */
function liveFields(fields: ArticleFields) {
  return {
    title: typeset(fields.title.trim()),
    excerpt: typeset(fields.excerpt.trim()),
    category: fields.category.trim(),
    author: fields.author.trim(),
    image_url: fields.cover,
    content: renderArticle(fields.markdown),
  };
}

/**
 * Article `id` as visitors would get it from `GET /api/blog/:id` were `fields` published at
 * `publishedAt`: what the console's preview shows through the blog's own view.
 */
export function previewPost(id: number, fields: ArticleFields, publishedAt: string): BlogPost {
  return { id, ...liveFields(fields), created_at: publishedAt, updated_at: new Date().toISOString() };
}

/**
 * Writes working copy `draft` (complete: see publishingProblems) as post `postId`'s live version
 * and marks that version live, inside the caller's transaction. The post keeps the date it first
 * went live; the content revision's trigger tells every process's caches.
 */
export async function writeLiveVersion(db: Db, draft: ArticleDraftsTable, now: Date): Promise<void> {
  const firstPublishedAt = draft.first_published_at ?? now.toISOString();
  await db.kysely
    .updateTable('blog_posts')
    .set({
      ...liveFields(draftFields(draft)),
      markdown: draft.markdown,
      created_at: db.dialect.timestamp(new Date(firstPublishedAt)),
      updated_at: db.dialect.timestamp(now),
      unpublished_at: null,
      source_hash: null,
      owner: 'console',
    })
    .where('id', '=', draft.post_id)
    .execute();
  await db.kysely
    .updateTable('article_drafts')
    .set({ published_version: draft.version, first_published_at: firstPublishedAt, publish_at: null })
    .where('post_id', '=', draft.post_id)
    .execute();
}
