import { sql } from 'kysely';
import type { Database } from '../../../src/platform/db/connection';
import { ARTICLE_LIMITS } from '@agency/shared/contracts';
import { ArticleError, articleDate, parseFrontMatter, splitFrontMatter } from '../../../src/site/content/front-matter';
import { openMigratedTestDatabase, type MigratedTestDatabase } from '../../helpers/database';

// Front matter rules, and their limits against the real blog_posts columns (SQLite, then PostgreSQL).

const VALID = {
  title: 'Назва',
  slug: 'nazva',
  category: 'SMM',
  author: 'Олена Кравчук',
  date: '2026-01-20',
  excerpt: 'Коротко.',
  cover: 'images/a.svg',
};

function yamlOf(fields: Record<string, unknown>): string {
  return Object.entries(fields)
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
    .join('\n');
}

function refusal(fields: Record<string, unknown>): { field: string; message: string } {
  try {
    parseFrontMatter(yamlOf(fields));
  } catch (error) {
    if (error instanceof ArticleError) return { field: error.field, message: error.message };
    throw error;
  }
  throw new Error('accepted');
}

describe('the limits', () => {
  let testDb: MigratedTestDatabase;
  let db: Database;

  beforeAll(async () => {
    testDb = await openMigratedTestDatabase();
    db = testDb.db;
  });

  afterAll(() => testDb.close());

  /** The declared size of each varchar column of blog_posts. */
  async function columnSizes(): Promise<Record<string, number>> {
    if (db.dialect.name === 'postgres') {
      const { rows } = await sql<{ column_name: string; size: number | null }>`
        select column_name, character_maximum_length as size from information_schema.columns
        where table_name = 'blog_posts'`.execute(db.kysely);
      return Object.fromEntries(rows.filter((row) => row.size !== null).map((row) => [row.column_name, Number(row.size)]));
    }
    const { rows } = await sql<{ name: string; type: string }>`pragma table_info(blog_posts)`.execute(db.kysely);
    return Object.fromEntries(
      rows.flatMap((row) => {
        const size = /^varchar\((\d+)\)$/i.exec(row.type)?.[1];
        return size ? [[row.name, Number(size)]] : [];
      }),
    );
  }

  it('are the sizes of the blog_posts columns they are stored in', async () => {
    const sizes = await columnSizes();
    for (const field of ['title', 'slug', 'category', 'author'] as const) expect([field, ARTICLE_LIMITS[field]]).toEqual([field, sizes[field]]);
  });

  it.each(['title', 'category', 'author', 'excerpt'] as const)('refuse a field over its limit by one character, naming the limit: %s', (field) => {
    expect(parseFrontMatter(yamlOf({ ...VALID, [field]: 'я'.repeat(ARTICLE_LIMITS[field]) }))[field]).toHaveLength(ARTICLE_LIMITS[field]);
    expect(refusal({ ...VALID, [field]: 'я'.repeat(ARTICLE_LIMITS[field] + 1) })).toEqual({
      field,
      message: `поле «${field}»: потрібно непорожній текст до ${ARTICLE_LIMITS[field]} символів`,
    });
  });

  it('refuse a slug longer than its column', () => {
    expect(refusal({ ...VALID, slug: 'a'.repeat(ARTICLE_LIMITS.slug + 1) }).field).toBe('slug');
  });
});

describe('reading a file', () => {
  it('splits the front matter from the Markdown, with a BOM or Windows line ends', () => {
    expect(splitFrontMatter('\uFEFF---\r\ntitle: А\r\n---\r\n\r\nТекст')).toEqual({ yaml: 'title: А', body: '\r\nТекст' });
  });

  it('keeps dates as written (no YAML time-zone guessing) and reads true/false for draft', () => {
    expect(parseFrontMatter(`${yamlOf(VALID).replace('"2026-01-20"', '2026-01-20')}\ndraft: true`)).toMatchObject({ date: '2026-01-20', draft: true });
  });

  it('refuses a slug with a space or Cyrillic letters', () => {
    expect(refusal({ ...VALID, slug: 'мій пост' }).field).toBe('slug');
  });
});

describe('articleDate', () => {
  it('puts a bare day at 09:00 Kyiv time, in winter (UTC+2) and in summer (UTC+3)', () => {
    expect(articleDate('2026-01-20').toISOString()).toBe('2026-01-20T07:00:00.000Z');
    expect(articleDate('2026-07-15').toISOString()).toBe('2026-07-15T06:00:00.000Z');
  });

  it('takes a full time with its zone as written', () => {
    expect(articleDate('2026-07-15T07:45:00Z').toISOString()).toBe('2026-07-15T07:45:00.000Z');
    expect(articleDate('2026-07-15T10:45:00+03:00').toISOString()).toBe('2026-07-15T07:45:00.000Z');
  });
});
