import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * FROZEN: this migration has run on live databases. Never edit it; add a new one.
 * It keeps its own copy of the dialect differences so that later changes elsewhere
 * cannot change what it does.
 */

// Migrations must not depend on the application's schema types (Kysely docs).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const idType = pg ? 'serial' : 'integer';
  const timestampType = pg ? 'timestamptz' : 'text';
  const now = pg ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

  await db.schema
    .createTable('services')
    .addColumn('id', idType, (col) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('slug', 'varchar(100)', (col) => col.notNull().unique())
    .addColumn('title', 'varchar(200)', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('icon_url', 'varchar(500)', (col) => col.notNull())
    .addColumn('features', pg ? 'jsonb' : 'text', (col) => col.notNull())
    .addColumn('price_from', 'integer')
    .addColumn('sort_order', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', timestampType, (col) => col.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('blog_posts')
    .addColumn('id', idType, (col) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('slug', 'varchar(200)', (col) => col.notNull().unique())
    .addColumn('title', 'varchar(300)', (col) => col.notNull())
    .addColumn('excerpt', 'text', (col) => col.notNull())
    .addColumn('category', 'varchar(100)', (col) => col.notNull())
    .addColumn('image_url', 'varchar(500)', (col) => col.notNull())
    .addColumn('author', 'varchar(200)', (col) => col.notNull())
    .addColumn('content', 'text', (col) => col.notNull())
    .addColumn('created_at', timestampType, (col) => col.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('blog_posts_created_at_idx').on('blog_posts').columns(['created_at', 'id']).execute();

  await db.schema
    .createTable('job_applications')
    .addColumn('id', idType, (col) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('phone', 'text', (col) => col.notNull())
    .addColumn('city', 'text', (col) => col.notNull())
    .addColumn('position', 'text', (col) => col.notNull())
    .addColumn('resume_text', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('user_agent', 'text')
    .addColumn('referrer', 'text')
    .addColumn('created_at', timestampType, (col) => col.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('job_applications_created_at_idx').on('job_applications').column('created_at').execute();

  await db.schema
    .createTable('contact_messages')
    .addColumn('id', idType, (col) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('phone', 'text', (col) => col.notNull())
    .addColumn('company', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('service_type', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('message', 'text', (col) => col.notNull())
    .addColumn('user_agent', 'text')
    .addColumn('referrer', 'text')
    .addColumn('created_at', timestampType, (col) => col.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('contact_messages_created_at_idx').on('contact_messages').column('created_at').execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ['contact_messages', 'job_applications', 'blog_posts', 'services']) {
    await db.schema.dropTable(table).execute();
  }
}
