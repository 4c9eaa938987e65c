import { SEED_BLOG_POSTS } from '../content/blog-posts';
import { SEED_SERVICES } from '../content/services';
import type { Database } from './connection';
import { countRows, insertBlogPost, insertService } from './repository';

/**
 * Fills empty content tables on first start. Runs under the dialect's write lock so two
 * processes starting together seed once; each table is seeded only when it is empty.
 */
export async function seedIfEmpty(db: Database): Promise<{ services: number; posts: number }> {
  return db.dialect.withWriteLock(db.kysely, async (trx) => {
    let services = 0;
    let posts = 0;
    if ((await countRows(trx, db.dialect, 'services')) === 0) {
      for (const service of SEED_SERVICES) {
        await insertService(trx, db.dialect, service);
        services += 1;
      }
    }
    if ((await countRows(trx, db.dialect, 'blog_posts')) === 0) {
      for (const post of SEED_BLOG_POSTS) {
        await insertBlogPost(trx, db.dialect, post);
        posts += 1;
      }
    }
    return { services, posts };
  });
}
