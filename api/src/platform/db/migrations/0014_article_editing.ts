import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/*
 * FROZEN once it has run on a live database: never edit it; add a new one.
 *
 * Articles written in the staff console. Timestamps of the new tables are ISO 8601 text in UTC,
 * as the console's tables are (sortable as text in both dialects).
 *
 * blog_posts.owner: `files` for a post the content folder publishes (every post so far), `console`
 * for one written or taken over in the console; the folder's sync never writes a console post.
 * blog_posts.markdown: the Markdown the live post was rendered from (NULL until the next sync
 * fills it for a post published before this migration).
 *
 * article_drafts: a console article's working copy, one per post (the post's row is its public
 * face and gives it its id, slug and address). `version` moves with every save, so a save made
 * from an older version is refused instead of overwriting. `published_version` is the version
 * that is live (NULL while it is not); `publish_at` a scheduled publication; `first_published_at`
 * when it first went live (the date visitors see).
 *
 * article_revisions: every save of a working copy, whole, with who made it: what the history
 * lists, compares and restores. Autosaves of one person in a row share one revision, amended.
 *
 * media_files: images uploaded in the console (covers and inline pictures, as prepared), by their
 * served name: every API process, on any machine, serves them from its own disk, written from
 * here the first time it is asked for one.
 */

// Migrations must not depend on the application's schema types (Kysely docs).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const isPostgres = (db: AnyDb) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: AnyDb): Promise<void> {
  const pg = isPostgres(db);
  const autoId = (col: ColumnDefinitionBuilder) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement());
  const fields = ['title', 'category', 'excerpt', 'author', 'cover_url', 'markdown'] as const;

  await db.schema
    .alterTable('blog_posts')
    .addColumn('owner', 'text', (col) => col.notNull().defaultTo('files').check(sql`owner in ('files', 'console')`))
    .execute();
  await db.schema.alterTable('blog_posts').addColumn('markdown', 'text').execute();

  let drafts = db.schema
    .createTable('article_drafts')
    .addColumn('post_id', 'integer', (col) => col.primaryKey().references('blog_posts.id'))
    .addColumn('version', 'integer', (col) => col.notNull());
  for (const field of fields) drafts = drafts.addColumn(field, 'text', (col) => col.notNull());
  await drafts
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('updated_by', 'integer', (col) => col.references('staff_members.id'))
    .addColumn('publish_at', 'text')
    .addColumn('published_version', 'integer')
    .addColumn('first_published_at', 'text')
    .execute();
  await db.schema.createIndex('article_drafts_publish_at_idx').on('article_drafts').column('publish_at').where(sql.ref('publish_at'), 'is not', null).execute();

  let revisions = db.schema
    .createTable('article_revisions')
    .addColumn('id', pg ? 'serial' : 'integer', autoId)
    .addColumn('post_id', 'integer', (col) => col.notNull().references('blog_posts.id'))
    .addColumn('version', 'integer', (col) => col.notNull())
    .addColumn('at', 'text', (col) => col.notNull())
    .addColumn('actor_id', 'integer', (col) => col.references('staff_members.id'))
    .addColumn('actor', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('created', 'saved', 'autosaved', 'restored', 'taken-over')`))
    .addColumn('restored_from', 'integer')
    .addColumn('slug', 'text', (col) => col.notNull());
  for (const field of fields) revisions = revisions.addColumn(field, 'text', (col) => col.notNull());
  await revisions.execute();
  await db.schema.createIndex('article_revisions_post_idx').on('article_revisions').columns(['post_id', 'id']).execute();

  await db.schema
    .createTable('media_files')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('bytes', pg ? 'bytea' : 'blob', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('created_by', 'integer', (col) => col.references('staff_members.id'))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('media_files').execute();
  await db.schema.dropTable('article_revisions').execute();
  await db.schema.dropTable('article_drafts').execute();
  await db.schema.alterTable('blog_posts').dropColumn('markdown').execute();
  await db.schema.alterTable('blog_posts').dropColumn('owner').execute();
}
