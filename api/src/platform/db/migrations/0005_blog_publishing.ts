import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * FROZEN once it has run on a live database: never edit it; add a new one.
 *
 * Blog posts published from Markdown files (npm run content -- sync):
 * - `unpublished_at`: set when a post's file is removed (or made a draft); such a post is never
 *   served, and keeps its id, so publishing it again restores its old address.
 * - `updated_at`: when the post last changed (the sitemap's lastmod).
 * - `source_hash`: a hash of everything the sync writes, so an unchanged file causes no write
 *   (and so does not move the content revision the API's cache watches).
 */

// Migrations must not depend on the application's schema types (Kysely docs).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const timestampType = pg ? 'timestamptz' : 'text';
  await db.schema.alterTable('blog_posts').addColumn('unpublished_at', timestampType).execute();
  await db.schema.alterTable('blog_posts').addColumn('updated_at', timestampType).execute();
  await db.schema.alterTable('blog_posts').addColumn('source_hash', 'text').execute();
  // Posts so far were last changed when they were written.
  await db.updateTable('blog_posts').set({ updated_at: sql`created_at` }).execute();
  await db.schema.createIndex('blog_posts_published_idx').on('blog_posts').columns(['unpublished_at', 'created_at', 'id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('blog_posts_published_idx').execute();
  for (const column of ['source_hash', 'updated_at', 'unpublished_at']) {
    await db.schema.alterTable('blog_posts').dropColumn(column).execute();
  }
}
