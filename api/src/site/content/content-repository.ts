import type { BlogCategoryCount, BlogPost, BlogPostSummary, Service } from '@agency/shared';
import { sql, type Insertable } from 'kysely';
import type { Db } from '../../platform/db/connection';
import type { BlogPostsTable, ServicesTable } from '../../platform/db/schema';

/**
 * The site's content in the database: services and blog posts, and the revision every change of
 * them moves. Shared by both dialects (see ../../platform/db/dialect.ts for what differs). Blog HTML is
 * stored as given: the content sync sanitizes it before it writes (./content-sync.ts), and so
 * does publishing from the console (./article-publishing.ts).
 */

/** A row as the application sees it: a numeric id and an ISO 8601 `created_at` (dialects differ). */
function stored<Row extends { id: number; created_at: unknown }>(db: Db, row: Row) {
  return { ...row, id: Number(row.id), created_at: db.dialect.readTimestamp(row.created_at) };
}

/** The counter every change of services or blog posts moves (triggers of migration 0002). */
export async function readContentRevision(db: Db): Promise<number> {
  const row = await db.kysely.selectFrom('content_revision').select('revision').where('id', '=', 1).executeTakeFirstOrThrow();
  return Number(row.revision);
}

/** The services the home page shows (published ones), in their order. */
export async function listServices(db: Db): Promise<Service[]> {
  const rows = await db.kysely
    .selectFrom('services')
    .select(['id', 'title', 'description', 'icon_url', 'features', 'price_from'])
    .where('unpublished_at', 'is', null)
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    ...row,
    id: Number(row.id),
    features: db.dialect.readStringArray(row.features),
    price_from: row.price_from === null ? null : Number(row.price_from),
  }));
}

/** How many services there are (seeding fills an empty table). */
export async function countServices(db: Db): Promise<number> {
  const row = await db.kysely
    .selectFrom('services')
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirstOrThrow();
  return db.dialect.readCount(row.count);
}

/** The columns of a post's summary (BlogPostSummary): every list reads these. */
const SUMMARY_COLUMNS = ['id', 'title', 'excerpt', 'category', 'image_url', 'created_at', 'author'] as const;

export async function listBlogPosts(db: Db, limit: number): Promise<BlogPostSummary[]> {
  const rows = await db.kysely
    .selectFrom('blog_posts')
    .select(SUMMARY_COLUMNS)
    .where('unpublished_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => stored(db, row));
}

/** One page of published posts (of one category, or all), newest first, and how many there are in all. */
export async function listBlogPage(
  db: Db,
  { category, offset, limit }: { category: string | null; offset: number; limit: number },
): Promise<{ posts: BlogPostSummary[]; total: number }> {
  let published = db.kysely.selectFrom('blog_posts').where('unpublished_at', 'is', null);
  if (category !== null) published = published.where('category', '=', category);
  const [rows, counted] = await Promise.all([
    published.select(SUMMARY_COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    published.select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { posts: rows.map((row) => stored(db, row)), total: db.dialect.readCount(counted.count) };
}

/** Every category with published posts and their count: the most posts first, then by name. */
export async function listBlogCategories(db: Db): Promise<BlogCategoryCount[]> {
  const rows = await db.kysely
    .selectFrom('blog_posts')
    .select((eb) => ['category', eb.fn.countAll().as('count')])
    .where('unpublished_at', 'is', null)
    .groupBy('category')
    .execute();
  return rows
    .map((row) => ({ name: row.category, count: db.dialect.readCount(row.count) }))
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name, 'uk'));
}

/**
 * Up to `limit` other published posts to read after post `id`: its category's first, then the
 * newest. Undefined when post `id` is unknown or unpublished.
 */
export async function listRelatedPosts(db: Db, id: number, limit: number): Promise<BlogPostSummary[] | undefined> {
  const post = await db.kysely
    .selectFrom('blog_posts')
    .select('category')
    .where('id', '=', id)
    .where('unpublished_at', 'is', null)
    .executeTakeFirst();
  if (!post) return undefined;
  const rows = await db.kysely
    .selectFrom('blog_posts')
    .select(SUMMARY_COLUMNS)
    .where('unpublished_at', 'is', null)
    .where('id', '<>', id)
    .orderBy(sql`case when category = ${post.category} then 0 else 1 end`)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => stored(db, row));
}

/** A published post; undefined for an unknown or unpublished id. */
export async function getBlogPost(db: Db, id: number): Promise<BlogPost | undefined> {
  const row = await db.kysely
    .selectFrom('blog_posts')
    .select([...SUMMARY_COLUMNS, 'updated_at', 'content'])
    .where('id', '=', id)
    .where('unpublished_at', 'is', null)
    .executeTakeFirst();
  return row && { ...stored(db, row), updated_at: db.dialect.readTimestamp(row.updated_at ?? row.created_at) };
}

/** Every published post's id and when it last changed, newest first: what the sitemap lists. */
export async function listPublishedPostDates(db: Db): Promise<{ id: number; updated_at: string }[]> {
  const rows = await db.kysely
    .selectFrom('blog_posts')
    .select(['id', 'created_at', 'updated_at'])
    .where('unpublished_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => ({ id: Number(row.id), updated_at: db.dialect.readTimestamp(row.updated_at ?? row.created_at) }));
}

/** A new service row; `features` as a list (the dialect encodes it), id and timestamp from the database. */
export type NewService = Omit<Insertable<ServicesTable>, 'id' | 'created_at' | 'features'> & { features: string[] };

export async function insertService(db: Db, service: NewService): Promise<number> {
  const row = await db.kysely
    .insertInto('services')
    .values({ ...service, features: db.dialect.json(service.features) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** A blog post row as written: dated by its author, its HTML already sanitized; the id comes from the database. */
export type NewBlogPost = Omit<Insertable<BlogPostsTable>, 'id' | 'created_at' | 'updated_at' | 'unpublished_at' | 'owner'> & {
  created_at: Date;
};

function blogPostValues(db: Db, post: NewBlogPost, updatedAt: Date) {
  return {
    ...post,
    created_at: db.dialect.timestamp(post.created_at),
    updated_at: db.dialect.timestamp(updatedAt),
  };
}

/** A new post; until it is first changed, it was last modified on its own date. */
export async function insertBlogPost(db: Db, post: NewBlogPost): Promise<number> {
  const row = await db.kysely
    .insertInto('blog_posts')
    .values(blogPostValues(db, post, post.created_at))
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Rewrites a post (matched by id) and publishes it. */
export async function updateBlogPost(db: Db, id: number, post: NewBlogPost, now = new Date()): Promise<void> {
  await db.kysely
    .updateTable('blog_posts')
    .set({ ...blogPostValues(db, post, now), unpublished_at: null })
    .where('id', '=', id)
    .execute();
}

/** Takes posts off the site; they keep their ids and rows. */
export async function unpublishBlogPosts(db: Db, ids: readonly number[], now = new Date()): Promise<void> {
  if (ids.length === 0) return;
  await db.kysely
    .updateTable('blog_posts')
    .set({ unpublished_at: db.dialect.timestamp(now), updated_at: db.dialect.timestamp(now) })
    .where('id', 'in', ids)
    .execute();
}

/** What the content sync compares against: every post's slug, owner, state, last written hash and whether its Markdown is stored. */
export async function listBlogPostSources(
  db: Db,
): Promise<{ id: number; slug: string; owner: 'files' | 'console'; published: boolean; source_hash: string | null; has_markdown: boolean }[]> {
  const rows = await db.kysely
    .selectFrom('blog_posts')
    .select((eb) => ['id', 'slug', 'owner', 'unpublished_at', 'source_hash', eb('markdown', 'is not', null).as('has_markdown')])
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    slug: row.slug,
    owner: row.owner,
    published: row.unpublished_at === null,
    source_hash: row.source_hash,
    has_markdown: Boolean(row.has_markdown),
  }));
}

/** Stores the Markdown a post was rendered from, without changing it (posts synced before it was kept). */
export async function storeBlogPostMarkdown(db: Db, id: number, markdown: string): Promise<void> {
  await db.kysely.updateTable('blog_posts').set({ markdown }).where('id', '=', id).execute();
}
