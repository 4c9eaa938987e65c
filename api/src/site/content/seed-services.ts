import { SEED_SERVICES } from './services';
import type { Database, Db } from '../../platform/db/connection';
import { countServices, insertService } from './content-repository';

/**
 * Fills an empty services table on first start. Runs under the dialect's write lock so two
 * processes starting together seed once. (Blog posts come from the content folder: see
 * src/site/content/content-sync.ts.)
 */
export async function seedIfEmpty(db: Database): Promise<{ services: number }> {
  return db.dialect.withWriteLock(db.kysely, async (trx) => {
    const locked: Db = { kysely: trx, dialect: db.dialect };
    let services = 0;
    if ((await countServices(locked)) === 0) {
      for (const service of SEED_SERVICES) {
        await insertService(locked, service);
        services += 1;
      }
    }
    return { services };
  });
}
