import type { ArticleDetail, ArticleRevision, ArticleRevisionSummary, ArticleState, ArticleSummary } from '@agency/shared';
import { draftFields } from '../../site/content';
import type { Db } from '../../platform/db/connection';
import type { ArticleDraftsTable } from '../../platform/db/schema';

/**
 * Reading the console's articles: every post (a file's or the console's), with the state an
 * editor sees. A console article's fields are its working copy's; a file's are what is live.
 */

interface PostRow {
  id: number;
  slug: string;
  title: string;
  excerpt: string;
  category: string;
  author: string;
  image_url: string;
  markdown: string | null;
  owner: 'files' | 'console';
  created_at: unknown;
  updated_at: unknown;
  unpublished_at: unknown;
}

type DraftRow = ArticleDraftsTable & { updated_by_email: string | null };

const POST_COLUMNS = ['id', 'slug', 'title', 'excerpt', 'category', 'author', 'image_url', 'markdown', 'owner', 'created_at', 'updated_at', 'unpublished_at'] as const;

function stateOf(post: PostRow, draft: DraftRow | undefined): ArticleState {
  if (post.unpublished_at === null) return 'published';
  if (draft?.publish_at) return 'scheduled';
  return draft && draft.first_published_at === null ? 'draft' : 'unpublished';
}

function detailOf(db: Db, post: PostRow, draft: DraftRow | undefined): ArticleDetail {
  const state = stateOf(post, draft);
  const base = { id: Number(post.id), slug: post.slug, owner: post.owner, state };
  if (!draft) {
    // A file's article: what the folder published (its Markdown once a sync has stored it).
    return {
      ...base,
      title: post.title,
      category: post.category,
      excerpt: post.excerpt,
      author: post.author,
      cover: post.image_url,
      markdown: post.markdown ?? '',
      publishAt: null,
      unpublishedChanges: false,
      updatedAt: db.dialect.readTimestamp(post.updated_at ?? post.created_at),
      updatedBy: null,
      version: 0,
      publishedAt: db.dialect.readTimestamp(post.created_at),
    };
  }
  return {
    ...base,
    ...draftFields(draft),
    publishAt: draft.publish_at,
    unpublishedChanges: state === 'published' && draft.published_version !== draft.version,
    updatedAt: draft.updated_at,
    updatedBy: draft.updated_by_email,
    version: Number(draft.version),
    publishedAt: draft.first_published_at,
  };
}

function postsWithDrafts(db: Db) {
  return db.kysely
    .selectFrom('blog_posts')
    .leftJoin('article_drafts', 'article_drafts.post_id', 'blog_posts.id')
    .leftJoin('staff_members', 'staff_members.id', 'article_drafts.updated_by')
    .select(POST_COLUMNS.map((column) => `blog_posts.${column}` as const))
    .select([
      'article_drafts.post_id',
      'article_drafts.version',
      'article_drafts.title as draft_title',
      'article_drafts.category as draft_category',
      'article_drafts.excerpt as draft_excerpt',
      'article_drafts.author as draft_author',
      'article_drafts.cover_url',
      'article_drafts.markdown as draft_markdown',
      'article_drafts.created_at as draft_created_at',
      'article_drafts.updated_at as draft_updated_at',
      'article_drafts.updated_by',
      'article_drafts.publish_at',
      'article_drafts.published_version',
      'article_drafts.first_published_at',
      'staff_members.email as updated_by_email',
    ]);
}

type JoinedRow = Awaited<ReturnType<ReturnType<typeof postsWithDrafts>['execute']>>[number];

function split(row: JoinedRow): { post: PostRow; draft: DraftRow | undefined } {
  const post: PostRow = { ...row, id: Number(row.id) } as PostRow;
  if (row.post_id === null) return { post, draft: undefined };
  const draft: DraftRow = {
    post_id: Number(row.post_id),
    version: Number(row.version),
    title: row.draft_title!,
    category: row.draft_category!,
    excerpt: row.draft_excerpt!,
    author: row.draft_author!,
    cover_url: row.cover_url!,
    markdown: row.draft_markdown!,
    created_at: row.draft_created_at!,
    updated_at: row.draft_updated_at!,
    updated_by: row.updated_by,
    publish_at: row.publish_at,
    published_version: row.published_version === null ? null : Number(row.published_version),
    first_published_at: row.first_published_at,
    updated_by_email: row.updated_by_email,
  };
  return { post, draft };
}

/** One article as the editor opens it; undefined for an unknown id. */
export async function findArticle(db: Db, id: number): Promise<ArticleDetail | undefined> {
  const row = await postsWithDrafts(db).where('blog_posts.id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const { post, draft } = split(row);
  return detailOf(db, post, draft);
}

/** The working copy as stored (for publishing it); undefined when the article has none. */
export async function findDraft(db: Db, id: number): Promise<ArticleDraftsTable | undefined> {
  const row = await db.kysely.selectFrom('article_drafts').selectAll().where('post_id', '=', id).executeTakeFirst();
  return row && { ...row, post_id: Number(row.post_id), version: Number(row.version), published_version: row.published_version === null ? null : Number(row.published_version) };
}

/**
 * Every article, the last changed first; with `q`, those whose title has it (any case: the
 * comparison is JavaScript's, which knows Ukrainian letters, where SQLite's lower() knows ASCII).
 */
export async function listArticles(db: Db, q?: string): Promise<ArticleSummary[]> {
  const rows = await postsWithDrafts(db).execute();
  const needle = q?.trim().toLocaleLowerCase('uk');
  return rows
    .map((row) => {
      const { post, draft } = split(row);
      const { id, slug, title, state, owner, publishAt, unpublishedChanges, updatedAt, updatedBy } = detailOf(db, post, draft);
      return { id, slug, title, state, owner, publishAt, unpublishedChanges, updatedAt, updatedBy };
    })
    .filter((article) => !needle || article.title.toLocaleLowerCase('uk').includes(needle))
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id);
}

const REVISION_SUMMARY_COLUMNS = ['id', 'version', 'at', 'actor', 'kind', 'restored_from'] as const;

/** An article's revisions, newest first. */
export async function listRevisions(db: Db, postId: number): Promise<ArticleRevisionSummary[]> {
  const rows = await db.kysely.selectFrom('article_revisions').select(REVISION_SUMMARY_COLUMNS).where('post_id', '=', postId).orderBy('id', 'desc').execute();
  return rows.map((row) => ({ id: Number(row.id), version: Number(row.version), at: row.at, actor: row.actor, kind: row.kind, restoredFrom: row.restored_from === null ? null : Number(row.restored_from) }));
}

/** One revision of article `postId`, whole; undefined when it has no such revision. */
export async function findRevision(db: Db, postId: number, revisionId: number): Promise<ArticleRevision | undefined> {
  const row = await db.kysely.selectFrom('article_revisions').selectAll().where('post_id', '=', postId).where('id', '=', revisionId).executeTakeFirst();
  if (!row) return undefined;
  return {
    id: Number(row.id),
    version: Number(row.version),
    at: row.at,
    actor: row.actor,
    kind: row.kind,
    restoredFrom: row.restored_from === null ? null : Number(row.restored_from),
    slug: row.slug,
    ...draftFields(row),
  };
}
