import { ATTRIBUTION_KEYS, type Attribution, type AttributionKey, type BlogCategoryCount, type BlogPost, type BlogPostSummary, type Service } from '@agency/shared';
import { sql, type Insertable, type Selectable } from 'kysely';
import { sanitizeBlogHtml } from './sanitize';
import type { Database } from '../db/connection';
import type { BlogPostsTable, ContactMessagesTable, DatabaseSchema, JobApplicationsTable, ServicesTable } from '../db/schema';

/**
 * Repository code shared by both dialects; see ./dialect.ts for what differs. Every function
 * takes a `Db`: the database, or a transaction on it with the same dialect.
 */
export type Db = Pick<Database, 'kysely' | 'dialect'>;

/** A row as the application sees it: a numeric id and an ISO 8601 `created_at` (dialects differ). */
type Stored<Table> = Omit<Selectable<Table>, 'id' | 'created_at'> & { id: number; created_at: string };

function stored<Row extends { id: number; created_at: unknown }>(db: Db, row: Row) {
  return { ...row, id: Number(row.id), created_at: db.dialect.readTimestamp(row.created_at) };
}

export async function listServices(db: Db): Promise<Service[]> {
  const rows = await db.kysely
    .selectFrom('services')
    .select(['id', 'title', 'description', 'icon_url', 'features', 'price_from'])
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

/** A blog post row as written: dated by its author; the id comes from the database. */
export type NewBlogPost = Omit<Insertable<BlogPostsTable>, 'id' | 'created_at' | 'updated_at' | 'unpublished_at'> & {
  created_at: Date;
};

function blogPostValues(db: Db, post: NewBlogPost, updatedAt: Date) {
  return {
    ...post,
    content: sanitizeBlogHtml(post.content),
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

/** What the content sync compares against: every post's slug, state and last written hash. */
export async function listBlogPostSources(
  db: Db,
): Promise<{ id: number; slug: string; published: boolean; source_hash: string | null }[]> {
  const rows = await db.kysely.selectFrom('blog_posts').select(['id', 'slug', 'unpublished_at', 'source_hash']).execute();
  return rows.map((row) => ({
    id: Number(row.id),
    slug: row.slug,
    published: row.unpublished_at === null,
    source_hash: row.source_hash,
  }));
}

export async function countRows(db: Db, table: keyof DatabaseSchema): Promise<number> {
  const row = await db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirstOrThrow();
  return db.dialect.readCount(row.count);
}

type SubmissionTable = 'contact_messages' | 'job_applications';

/** Who sent a submission, and where their visit came from (null when the form did not say); stored next to it. */
export type SubmissionMeta = Pick<Selectable<ContactMessagesTable>, 'user_agent' | 'referrer'> & { attribution: Attribution | null };

/** A client's own key for one submission (the Idempotency-Key header) and a hash of what it stored under it. */
export interface SubmissionKey {
  key: string;
  requestHash: string;
}

/** What a visitor submitted (every field, defaults filled in), without the columns the API adds. */
type NewSubmission<Table> = Omit<
  Insertable<Table>,
  'id' | 'created_at' | 'idempotency_key' | 'request_hash' | 'user_agent' | 'referrer' | AttributionKey
>;

function keyColumns(key: SubmissionKey | undefined) {
  return key ? { idempotency_key: key.key, request_hash: key.requestHash } : {};
}

/** The columns of what the API stores beside a submission: the sender's browser and page, and the attribution's keys (each, or null). */
function metaColumns({ user_agent, referrer, attribution }: SubmissionMeta) {
  const columns: Record<string, string | null> = { user_agent, referrer };
  for (const key of ATTRIBUTION_KEYS) columns[key] = attribution?.[key] ?? null;
  return columns as Pick<SubmissionMeta, 'user_agent' | 'referrer'> & Record<AttributionKey, string | null>;
}
export type NewContactMessage = NewSubmission<ContactMessagesTable>;
export type NewJobApplication = NewSubmission<JobApplicationsTable>;

/** Resolves only after the row is committed (or, inside a transaction, is part of it). */
export async function insertContactMessage(
  db: Db,
  message: NewContactMessage,
  meta: SubmissionMeta,
  receivedAt = new Date(),
  key?: SubmissionKey,
): Promise<number> {
  const row = await db.kysely
    .insertInto('contact_messages')
    .values({ ...message, ...metaColumns(meta), ...keyColumns(key), created_at: db.dialect.timestamp(receivedAt) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function insertJobApplication(
  db: Db,
  application: NewJobApplication,
  meta: SubmissionMeta,
  receivedAt = new Date(),
  key?: SubmissionKey,
): Promise<number> {
  const row = await db.kysely
    .insertInto('job_applications')
    .values({ ...application, ...metaColumns(meta), ...keyColumns(key), created_at: db.dialect.timestamp(receivedAt) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** A believable id for a submission we do not store (honeypot): the next id the table would give. */
export async function plausibleNextId(db: Db, table: SubmissionTable): Promise<number> {
  const row = await db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.max('id').as('max'))
    .executeTakeFirst();
  return Number(row?.max ?? 0) + 1;
}

export type SubmissionKind = 'contact' | 'applications';

export const SUBMISSION_TABLES = { contact: 'contact_messages', applications: 'job_applications' } as const satisfies Record<SubmissionKind, SubmissionTable>;

/** The submission stored under a client's key, if any: its id and the hash of what was sent. */
export async function findSubmissionByKey(
  db: Db,
  kind: SubmissionKind,
  key: string,
): Promise<{ id: number; request_hash: string | null } | undefined> {
  const row = await db.kysely
    .selectFrom(SUBMISSION_TABLES[kind])
    .select(['id', 'request_hash'])
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
  return row && { id: Number(row.id), request_hash: row.request_hash };
}

/** The key columns are the API's bookkeeping, not part of the lead the staff read. */
type KeyColumn = 'idempotency_key' | 'request_hash';
export type StoredContactMessage = Omit<Stored<ContactMessagesTable>, KeyColumn>;
export type StoredJobApplication = Omit<Stored<JobApplicationsTable>, KeyColumn>;

function withoutKey<Row extends Record<KeyColumn, unknown>>(row: Row): Omit<Row, KeyColumn> {
  const lead: Partial<Row> = { ...row };
  delete lead.idempotency_key;
  delete lead.request_hash;
  return lead as Omit<Row, KeyColumn>;
}

/** Stored contact messages, oldest first, optionally from a date on. */
export async function listContactMessages(db: Db, since?: Date): Promise<StoredContactMessage[]> {
  let query = db.kysely.selectFrom('contact_messages').selectAll();
  if (since) query = query.where('created_at', '>=', db.dialect.timestamp(since));
  const rows = await query.orderBy('created_at').orderBy('id').execute();
  return rows.map((row) => withoutKey(stored(db, row)));
}

/** Stored job applications, oldest first, optionally from a date on. */
export async function listJobApplications(db: Db, since?: Date): Promise<StoredJobApplication[]> {
  let query = db.kysely.selectFrom('job_applications').selectAll();
  if (since) query = query.where('created_at', '>=', db.dialect.timestamp(since));
  const rows = await query.orderBy('created_at').orderBy('id').execute();
  return rows.map((row) => withoutKey(stored(db, row)));
}

/** A lead's stored attribution columns as an attribution; null when the lead came without one. */
export function storedAttribution(row: Partial<Record<AttributionKey, string | null>>): Attribution | null {
  const attribution: Attribution = {};
  for (const key of ATTRIBUTION_KEYS) {
    const value = row[key];
    if (value !== null && value !== undefined) attribution[key] = value;
  }
  return Object.keys(attribution).length > 0 ? attribution : null;
}

/** The attribution of every lead of one kind received from `since` on (null for leads without one). */
export async function listLeadAttributions(db: Db, kind: SubmissionKind, since: Date): Promise<(Attribution | null)[]> {
  const rows = await db.kysely
    .selectFrom(SUBMISSION_TABLES[kind])
    .select(ATTRIBUTION_KEYS)
    .where('created_at', '>=', db.dialect.timestamp(since))
    .execute();
  return rows.map(storedAttribution);
}
