import { SEED_BLOG_POSTS } from '../content/blog-posts';
import { SEED_SERVICES } from '../content/services';
import type { Database } from './connection';
import { countRows, insertBlogPost, insertService, type Db } from './repository';

/**
 * Fills empty content tables on first start. Runs under the dialect's write lock so two
 * processes starting together seed once; each table is seeded only when it is empty.
 */
export async function seedIfEmpty(db: Database): Promise<{ services: number; posts: number }> {
  return db.dialect.withWriteLock(db.kysely, async (trx) => {
    const locked: Db = { kysely: trx, dialect: db.dialect };
    let services = 0;
    let posts = 0;
    if ((await countRows(locked, 'services')) === 0) {
      for (const service of SEED_SERVICES) {
        await insertService(locked, service);
        services += 1;
      }
    }
    if ((await countRows(locked, 'blog_posts')) === 0) {
      for (const post of SEED_BLOG_POSTS) {
        await insertBlogPost(locked, post);
        posts += 1;
      }
    }
    return { services, posts };
  });
}
