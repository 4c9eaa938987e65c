import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../../platform/config';
import { ContentCache } from './content-cache';
import { readContentRevision } from './content-repository';
import { contentRoutes } from './content-routes';
import { publishArticles } from './publish-at-start';
import { seedIfEmpty } from './seed-services';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every content answer, serialized once per content revision; pages are kept under the same revision. */
    contentCache: ContentCache;
  }
}

export interface ContentPluginOptions {
  config: Pick<AppConfig, 'contentDir' | 'mediaDir'>;
}

/**
 * Services and articles: seeded into an empty database, articles published from the content
 * folder at start, and the JSON routes that read them. Answers come from memory, also while the
 * database is down.
 */
async function contentPlugin(app: FastifyInstance, { config }: ContentPluginOptions): Promise<void> {
  const { db, databaseWatch } = app;
  const seeded = await seedIfEmpty(db);
  if (seeded.services) app.log.info(seeded, 'seeded services into an empty database');
  await publishArticles(db, config, app.log);
  const cache = new ContentCache({
    readRevision: () => readContentRevision(db),
    onRevisionError: (error) => databaseWatch.failed(error),
  });
  app.decorate('contentCache', cache);
  await app.register(contentRoutes, { db, cache });
}

export default fp(contentPlugin, { name: 'content', dependencies: ['database'] });
