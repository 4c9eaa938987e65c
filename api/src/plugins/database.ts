import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createDatabase, type Database } from '../db/connection';
import { DatabaseWatch } from '../db/database-watch';
import { migrateToLatest } from '../db/migrate';

/**
 * How long a request waits for a PostgreSQL connection, new or from a busy pool. On the same
 * network one takes milliseconds; without a limit a server that is down or restarting would
 * hold every request until the operating system gives up. Past it the request is answered 503
 * (retry), within the shell's nginx read timeout (shell/deploy/nginx-site.conf.template).
 */
export const DATABASE_CONNECT_TIMEOUT_MS = 1000;

declare module 'fastify' {
  interface FastifyInstance {
    /** The site's database, migrated to the latest schema. */
    db: Database;
    /** Whether the database was reached lately: health, the error handler and 503s read it. */
    databaseWatch: DatabaseWatch;
  }
}

export interface DatabasePluginOptions {
  databaseUrl: string;
  /** A database opened by the caller, who then also closes it. */
  database?: Database;
}

/** Opens the database (or takes the caller's), migrates it, watches it, and closes what it opened last. */
async function databasePlugin(app: FastifyInstance, { databaseUrl, database }: DatabasePluginOptions): Promise<void> {
  const watch = new DatabaseWatch(app.log);
  const db =
    database ??
    createDatabase(databaseUrl, {
      connectTimeoutMs: DATABASE_CONNECT_TIMEOUT_MS,
      // A restarted server ends its clients' connections: reported (once) as the database lost.
      onPoolError: (error) => watch.failed(error) || app.log.error({ err: error }, 'idle PostgreSQL client failed'),
      onQuery: (event) => (event.level === 'query' ? watch.reached() : watch.failed(event.error)),
    });
  const close = async () => {
    if (!database) await db.destroy();
  };
  try {
    await migrateToLatest(db);
  } catch (error) {
    await close();
    throw error;
  }
  app.decorate('db', db);
  app.decorate('databaseWatch', watch);
  // Registered first, so closed last: every feature's onClose (writing what is pending) runs before.
  app.addHook('onClose', close);
}

export default fp(databasePlugin, { name: 'database' });
