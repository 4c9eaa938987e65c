import type { BlogPost, BlogPostSummary, ContactMessage, JobApplication, Service } from '@agency/shared';
import type { Kysely } from 'kysely';
import { sanitizeBlogHtml } from '../content/sanitize';
import type { Database } from './connection';
import type { Dialect } from './dialect';
import type { DatabaseSchema } from './schema';

/** Repository code shared by both dialects; see ./dialect.ts for what differs. */

export async function listServices(db: Database): Promise<Service[]> {
  const rows = await db.kysely
    .selectFrom('services')
    .select(['id', 'title', 'description', 'icon_url', 'features', 'price_from'])
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    title: row.title,
    description: row.description,
    icon_url: row.icon_url,
    features: db.dialect.readStringArray(row.features),
    price_from: row.price_from === null ? null : Number(row.price_from),
  }));
}

export async function listBlogPosts(db: Database, limit: number): Promise<BlogPostSummary[]> {
  const rows = await db.kysely
    .selectFrom('blog_posts')
    .select(['id', 'title', 'excerpt', 'category', 'image_url', 'created_at', 'author'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...row, id: Number(row.id), created_at: db.dialect.readTimestamp(row.created_at) }));
}

export async function getBlogPost(db: Database, id: number): Promise<BlogPost | undefined> {
  const row = await db.kysely
    .selectFrom('blog_posts')
    .select(['id', 'title', 'excerpt', 'category', 'image_url', 'created_at', 'author', 'content'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  return { ...row, id: Number(row.id), created_at: db.dialect.readTimestamp(row.created_at) };
}

/** Every blog post's id and date, newest first: what the sitemap lists. */
export async function listPublishedPostDates(db: Database): Promise<{ id: number; created_at: string }[]> {
  const rows = await db.kysely
    .selectFrom('blog_posts')
    .select(['id', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => ({ id: Number(row.id), created_at: db.dialect.readTimestamp(row.created_at) }));
}

export interface ServiceInput {
  slug: string;
  title: string;
  description: string;
  icon_url: string;
  features: string[];
  price_from: number | null;
  sort_order: number;
}

export async function insertService(kysely: Kysely<DatabaseSchema>, dialect: Dialect, input: ServiceInput): Promise<number> {
  const row = await kysely
    .insertInto('services')
    .values({ ...input, features: dialect.json(input.features) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export interface BlogPostInput {
  slug: string;
  title: string;
  excerpt: string;
  category: string;
  image_url: string;
  author: string;
  content: string;
  created_at: Date;
}

export async function insertBlogPost(kysely: Kysely<DatabaseSchema>, dialect: Dialect, input: BlogPostInput): Promise<number> {
  const row = await kysely
    .insertInto('blog_posts')
    .values({
      ...input,
      content: sanitizeBlogHtml(input.content),
      created_at: dialect.timestamp(input.created_at),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function countRows(kysely: Kysely<DatabaseSchema>, dialect: Dialect, table: keyof DatabaseSchema): Promise<number> {
  const row = await kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirstOrThrow();
  return dialect.readCount(row.count);
}

type SubmissionTable = 'contact_messages' | 'job_applications';

/** Who sent a submission; stored next to it. */
export interface SubmissionMeta {
  user_agent: string | null;
  referrer: string | null;
}

/** What a visitor submits: the same contracts the forms send (validated by the route schemas). */
export type ContactInput = ContactMessage;
export type ApplicationInput = JobApplication;

/** Resolves only after the row is committed (each insert is its own transaction). */
export async function insertContactMessage(db: Database, input: ContactInput, meta: SubmissionMeta): Promise<number> {
  const row = await db.kysely
    .insertInto('contact_messages')
    .values({
      name: input.name,
      email: input.email,
      phone: input.phone,
      company: input.company,
      service_type: input.service_type,
      message: input.message,
      user_agent: meta.user_agent,
      referrer: meta.referrer,
      created_at: db.dialect.timestamp(new Date()),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function insertJobApplication(db: Database, input: ApplicationInput, meta: SubmissionMeta): Promise<number> {
  const row = await db.kysely
    .insertInto('job_applications')
    .values({
      name: input.name,
      email: input.email,
      phone: input.phone,
      city: input.city,
      position: input.position,
      resume_text: input.resume_text,
      user_agent: meta.user_agent,
      referrer: meta.referrer,
      created_at: db.dialect.timestamp(new Date()),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** A believable id for a submission we do not store (honeypot): the next id the table would give. */
export async function plausibleNextId(db: Database, table: SubmissionTable): Promise<number> {
  const row = await db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.max('id').as('max'))
    .executeTakeFirst();
  return Number(row?.max ?? 0) + 1;
}

export type SubmissionKind = 'contact' | 'applications';

export interface StoredContactMessage extends ContactInput, SubmissionMeta {
  id: number;
  created_at: string;
}

export interface StoredJobApplication extends ApplicationInput, SubmissionMeta {
  id: number;
  created_at: string;
}

/** Stored rows of one submission table, oldest first, optionally from a date on. */
async function listSubmissions(db: Database, table: SubmissionTable, since?: Date) {
  let query = db.kysely.selectFrom(table).selectAll();
  if (since) query = query.where('created_at', '>=', db.dialect.timestamp(since));
  const rows = await query.orderBy('created_at').orderBy('id').execute();
  return rows.map((row) => ({ ...row, id: Number(row.id), created_at: db.dialect.readTimestamp(row.created_at) }));
}

export async function listContactMessages(db: Database, since?: Date): Promise<StoredContactMessage[]> {
  return (await listSubmissions(db, 'contact_messages', since)) as StoredContactMessage[];
}

export async function listJobApplications(db: Database, since?: Date): Promise<StoredJobApplication[]> {
  return (await listSubmissions(db, 'job_applications', since)) as StoredJobApplication[];
}
