import { ARTICLE_EDITING, type ArticleCreate, type ArticleDetail, type ArticleFields, type ArticleRevisionKind, type ArticleSave } from '@agency/shared';
import { slugFromTitle } from '@agency/shared/slug';
import { SLUG_PATTERN } from '@agency/shared/contracts';
import { publishingProblems, writeLiveVersion } from '../../site/content';
import type { Db } from '../../platform/db/connection';
import { isUniqueViolation } from '../../platform/db/database-errors';
import type { AppKysely, ArticleDraftsTable } from '../../platform/db/schema';
import { ApiError } from '../../platform/http/api-error';
import { recordAudit, type AuditAction } from '../../platform/audit/audit-log';
import { ChangedError } from '../common/changed-error';
import { STAFF_MESSAGES } from '../common/staff-messages';
import type { Actor } from '../inbox/lead-work';
import { findArticle, findDraft, findRevision } from './article-repository';

/**
 * An editor's work on articles. Every change names the version it was made from and is refused
 * with the article as it is now (409) when another save came first, so two editors never
 * silently overwrite each other; each save of the working copy is a revision. A file's article
 * is only read until the console takes it over, said in so many words.
 */

export class ArticleChangedError extends ChangedError<ArticleDetail> {
  constructor(current: ArticleDetail) {
    super('ARTICLE_CHANGED', STAFF_MESSAGES.articleChanged, current);
  }
}

const FIELD_COLUMNS = (fields: ArticleFields) => ({
  title: fields.title,
  category: fields.category,
  excerpt: fields.excerpt,
  author: fields.author,
  cover_url: fields.cover,
  markdown: fields.markdown,
});

const notFound = () => new ApiError(404, 'ARTICLE_NOT_FOUND', STAFF_MESSAGES.articleNotFound);
const slugTaken = (slug: string) => new ApiError(409, 'SLUG_TAKEN', STAFF_MESSAGES.slugTaken(slug), { slug: STAFF_MESSAGES.slugTaken(slug) });

async function audit(kysely: AppKysely, actor: Actor, action: AuditAction, postId: number, detail?: Record<string, unknown>) {
  await recordAudit(kysely, { actorId: actor.member.id, actor: actor.member.email, action, target: `article:${postId}`, address: actor.address, detail });
}

async function slugInUse(kysely: AppKysely, slug: string, exceptId?: number): Promise<boolean> {
  let query = kysely.selectFrom('blog_posts').select('id').where('slug', '=', slug);
  if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** Runs `work`; a unique-slug race lost to another save is the same clear refusal as a taken slug. */
async function guardSlug<T>(slug: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw slugTaken(slug);
    throw error;
  }
}

interface RevisionInput {
  postId: number;
  version: number;
  slug: string;
  fields: ArticleFields;
  kind: ArticleRevisionKind;
  restoredFrom?: number;
  at: string;
}

async function addRevision(kysely: AppKysely, actor: Actor, revision: RevisionInput): Promise<void> {
  await kysely
    .insertInto('article_revisions')
    .values({
      post_id: revision.postId,
      version: revision.version,
      at: revision.at,
      actor_id: actor.member.id,
      actor: actor.member.email,
      kind: revision.kind,
      restored_from: revision.restoredFrom ?? null,
      slug: revision.slug,
      ...FIELD_COLUMNS(revision.fields),
    })
    .execute();
}

/**
 * An autosave continues the newest revision when that is this person's autosave of the version
 * just replaced, made within the amend window: typing for an hour leaves a handful of revisions,
 * not a thousand. Anything else (another person, an explicit save, a pause) starts a new one.
 */
async function amendAutosave(kysely: AppKysely, actor: Actor, revision: RevisionInput, previousVersion: number): Promise<boolean> {
  const head = await kysely.selectFrom('article_revisions').select(['id', 'actor_id', 'kind', 'version', 'at']).where('post_id', '=', revision.postId).orderBy('id', 'desc').limit(1).executeTakeFirst();
  const windowStart = new Date(Date.parse(revision.at) - ARTICLE_EDITING.autosaveRevisionMinutes * 60_000).toISOString();
  if (!head || head.kind !== 'autosaved' || head.actor_id !== actor.member.id || Number(head.version) !== previousVersion || head.at < windowStart) return false;
  await kysely
    .updateTable('article_revisions')
    .set({ version: revision.version, at: revision.at, slug: revision.slug, ...FIELD_COLUMNS(revision.fields) })
    .where('id', '=', head.id)
    .execute();
  return true;
}

/** A new console article: a draft nobody sees, its slug made from the title unless given. */
export async function createArticle(db: Db, input: ArticleCreate, actor: Actor): Promise<ArticleDetail> {
  const slug = input.slug ?? slugFromTitle(input.title);
  if (!new RegExp(SLUG_PATTERN).test(slug)) throw new ApiError(400, 'SLUG_REQUIRED', STAFF_MESSAGES.slugFromTitleEmpty, { slug: STAFF_MESSAGES.slugFromTitleEmpty });
  const { slug: _given, ...fields } = input;
  const now = new Date();
  const at = now.toISOString();
  const id = await guardSlug(slug, () =>
    db.kysely.transaction().execute(async (trx) => {
      if (await slugInUse(trx, slug)) throw slugTaken(slug);
      const post = await trx
        .insertInto('blog_posts')
        .values({
          slug,
          title: fields.title,
          excerpt: '',
          category: '',
          image_url: '',
          author: '',
          content: '',
          created_at: db.dialect.timestamp(now),
          updated_at: db.dialect.timestamp(now),
          unpublished_at: db.dialect.timestamp(now),
          owner: 'console',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const postId = Number(post.id);
      await trx
        .insertInto('article_drafts')
        .values({ post_id: postId, version: 1, ...FIELD_COLUMNS(fields), created_at: at, updated_at: at, updated_by: actor.member.id, publish_at: null, published_version: null, first_published_at: null })
        .execute();
      await addRevision(trx, actor, { postId, version: 1, slug, fields, kind: 'created', at });
      await audit(trx, actor, 'article-created', postId);
      return postId;
    }),
  );
  return (await findArticle(db, id))!;
}

/** The working copy the request acts on, checked: it exists, the console owns it, and it is at `version`. */
async function draftAt(db: Db, id: number, version: number): Promise<{ draft: ArticleDraftsTable; current: ArticleDetail }> {
  const current = await findArticle(db, id);
  if (!current) throw notFound();
  if (current.owner === 'files') throw new ApiError(409, 'ARTICLE_FILE_OWNED', STAFF_MESSAGES.articleFileOwned);
  if (current.version !== version) throw new ArticleChangedError(current);
  return { draft: (await findDraft(db, id))!, current };
}

/**
 * Moves the working copy from `version` to the next, inside a transaction; false when another
 * save moved it first (the caller answers with a conflict).
 */
async function bumpVersion(trx: AppKysely, id: number, version: number, set: Partial<ArticleDraftsTable>): Promise<boolean> {
  const result = await trx
    .updateTable('article_drafts')
    .set({ ...set, version: version + 1 })
    .where('post_id', '=', id)
    .where('version', '=', version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

async function changedOrConflict(db: Db, id: number, changed: boolean): Promise<ArticleDetail> {
  const current = (await findArticle(db, id))!;
  if (!changed) throw new ArticleChangedError(current);
  return current;
}

function sameFields(a: ArticleFields, b: ArticleFields): boolean {
  return a.title === b.title && a.category === b.category && a.excerpt === b.excerpt && a.author === b.author && a.cover === b.cover && a.markdown === b.markdown;
}

async function writeWorkingCopy(db: Db, id: number, from: number, slug: string, fields: ArticleFields, actor: Actor, revision: { kind: ArticleRevisionKind; restoredFrom?: number }, currentSlug: string): Promise<boolean> {
  const at = new Date().toISOString();
  return guardSlug(slug, () =>
    db.kysely.transaction().execute(async (trx) => {
      if (slug !== currentSlug) {
        if (await slugInUse(trx, slug, id)) throw slugTaken(slug);
        await trx.updateTable('blog_posts').set({ slug }).where('id', '=', id).execute();
      }
      if (!(await bumpVersion(trx, id, from, { ...FIELD_COLUMNS(fields), updated_at: at, updated_by: actor.member.id }))) return false;
      const input: RevisionInput = { postId: id, version: from + 1, slug, fields, kind: revision.kind, restoredFrom: revision.restoredFrom, at };
      if (!(revision.kind === 'autosaved' && (await amendAutosave(trx, actor, input, from)))) await addRevision(trx, actor, input);
      if (revision.kind === 'restored') await audit(trx, actor, 'article-restored', id, { revision: revision.restoredFrom });
      return true;
    }),
  );
}

/** Saves the working copy (an autosave or the editor's own); a save that changes nothing writes nothing. */
export async function saveArticle(db: Db, id: number, save: ArticleSave, actor: Actor): Promise<ArticleDetail> {
  const { current } = await draftAt(db, id, save.version);
  const { version, autosave, slug, ...fields } = save;
  if (slug === current.slug && sameFields(fields, current)) return current;
  const changed = await writeWorkingCopy(db, id, version, slug, fields, actor, { kind: autosave ? 'autosaved' : 'saved' }, current.slug);
  return changedOrConflict(db, id, changed);
}

/** Brings back revision `revisionId` as a new revision of the working copy (slug included). */
export async function restoreRevision(db: Db, id: number, revisionId: number, version: number, actor: Actor): Promise<ArticleDetail> {
  const { current } = await draftAt(db, id, version);
  const revision = await findRevision(db, id, revisionId);
  if (!revision) throw new ApiError(404, 'REVISION_NOT_FOUND', STAFF_MESSAGES.revisionNotFound);
  const { title, category, excerpt, author, cover, markdown } = revision;
  const changed = await writeWorkingCopy(db, id, version, revision.slug, { title, category, excerpt, author, cover, markdown }, actor, { kind: 'restored', restoredFrom: revisionId }, current.slug);
  return changedOrConflict(db, id, changed);
}

/**
 * The console takes a file's article over: its live text becomes the first revision of a working
 * copy, and from then on the folder's sync leaves it alone.
 */
export async function takeOverArticle(db: Db, id: number, actor: Actor): Promise<ArticleDetail> {
  const current = await findArticle(db, id);
  if (!current) throw notFound();
  if (current.owner === 'console') return current;
  const post = await db.kysely.selectFrom('blog_posts').select(['markdown', 'unpublished_at']).where('id', '=', id).executeTakeFirstOrThrow();
  if (post.markdown === null) throw new ApiError(409, 'ARTICLE_SOURCE_MISSING', STAFF_MESSAGES.articleSourceMissing);
  const at = new Date().toISOString();
  const { title, category, excerpt, author, cover, markdown, slug, publishedAt, state } = current;
  const fields = { title, category, excerpt, author, cover, markdown };
  await db.kysely.transaction().execute(async (trx) => {
    const taken = await trx.updateTable('blog_posts').set({ owner: 'console' }).where('id', '=', id).where('owner', '=', 'files').executeTakeFirst();
    // Another editor took it over a moment ago: theirs is the working copy.
    if (Number(taken.numUpdatedRows) !== 1) return;
    await trx
      .insertInto('article_drafts')
      .values({
        post_id: id,
        version: 1,
        ...FIELD_COLUMNS(fields),
        created_at: at,
        updated_at: at,
        updated_by: actor.member.id,
        publish_at: null,
        published_version: state === 'published' ? 1 : null,
        first_published_at: publishedAt,
      })
      .execute();
    await addRevision(trx, actor, { postId: id, version: 1, slug, fields, kind: 'taken-over', at });
    await audit(trx, actor, 'article-taken-over', id);
  });
  return (await findArticle(db, id))!;
}

function refuseIncomplete(fields: ArticleFields): void {
  const problems = publishingProblems(fields);
  if (Object.keys(problems).length > 0) throw new ApiError(400, 'ARTICLE_INCOMPLETE', STAFF_MESSAGES.articleIncomplete, problems);
}

/** Publishes the working copy at `version` now. */
export async function publishArticle(db: Db, id: number, version: number, actor: Actor): Promise<ArticleDetail> {
  const { draft, current } = await draftAt(db, id, version);
  refuseIncomplete(current);
  const changed = await db.kysely.transaction().execute(async (trx) => {
    const moved = await trx.updateTable('article_drafts').set({ publish_at: null }).where('post_id', '=', id).where('version', '=', version).executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return false;
    await writeLiveVersion({ kysely: trx, dialect: db.dialect }, draft, new Date());
    await audit(trx, actor, 'article-published', id, { version });
    return true;
  });
  return changedOrConflict(db, id, changed);
}

/**
 * Publishes the working copy at `publishAt` (in the future): the schedule publishes what the
 * working copy is then. A live article stays live meanwhile, with its live version.
 */
export async function scheduleArticle(db: Db, id: number, version: number, publishAt: string, actor: Actor, now = new Date()): Promise<ArticleDetail> {
  const { current } = await draftAt(db, id, version);
  const when = new Date(publishAt);
  if (!(when.getTime() > now.getTime())) throw new ApiError(400, 'PUBLISH_TIME_PAST', STAFF_MESSAGES.publishTimePast, { publishAt: STAFF_MESSAGES.publishTimePast });
  if (current.state === 'published') throw new ApiError(409, 'ARTICLE_ALREADY_PUBLISHED', STAFF_MESSAGES.articleAlreadyPublished);
  refuseIncomplete(current);
  const changed = await db.kysely.transaction().execute(async (trx) => {
    const moved = await trx.updateTable('article_drafts').set({ publish_at: when.toISOString() }).where('post_id', '=', id).where('version', '=', version).executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return false;
    await audit(trx, actor, 'article-scheduled', id, { version, publishAt: when.toISOString() });
    return true;
  });
  return changedOrConflict(db, id, changed);
}

/** Takes the article off the site (its address answers 404) and cancels a scheduled publication. */
export async function unpublishArticle(db: Db, id: number, version: number, actor: Actor): Promise<ArticleDetail> {
  const { current } = await draftAt(db, id, version);
  if (current.state !== 'published' && current.state !== 'scheduled') return current;
  const changed = await db.kysely.transaction().execute(async (trx) => {
    const moved = await trx.updateTable('article_drafts').set({ publish_at: null, published_version: null }).where('post_id', '=', id).where('version', '=', version).executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return false;
    if (current.state === 'published') {
      const now = new Date();
      await trx.updateTable('blog_posts').set({ unpublished_at: db.dialect.timestamp(now), updated_at: db.dialect.timestamp(now) }).where('id', '=', id).execute();
    }
    await audit(trx, actor, 'article-unpublished', id, { was: current.state });
    return true;
  });
  return changedOrConflict(db, id, changed);
}
