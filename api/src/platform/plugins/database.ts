import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import { createDatabase, type Database } from '../db/connection';
import { isDatabaseUnavailable } from '../db/database-errors';
import { DatabaseWatch } from '../db/database-watch';
import { migrateToLatest } from '../db/migrate';

/**
 * How long a request waits for a PostgreSQL connection, new or from a busy pool. On the same
 * network one takes milliseconds; without a limit a server that is down or restarting would
 * hold every request until the operating system gives up. Past it the request is answered 503
 * (retry), within the shell's nginx read timeout (shell/deploy/nginx-site.conf.template).
 */
export const DATABASE_CONNECT_TIMEOUT_MS = 1000;

/**
 * How long a starting server keeps trying to reach its database. No request waits on a start, and
 * a connection can take longer than DATABASE_CONNECT_TIMEOUT_MS while the database restarts or
 * the machine is busy: a server that gave up at once would exit and have to be started again.
 * Within Fastify's 10 s plugin timeout, with room for the migrations after it.
 */
export const DATABASE_STARTUP_WAIT_MS = 6000;
const STARTUP_RETRY_PAUSE_MS = 250;

/**
 * How long each connection a starting server opens may take (its first query's tries, the
 * release import's and the like), until the server is ready and requests' own limit applies.
 */
export const DATABASE_STARTUP_CONNECT_TIMEOUT_MS = 3000;

/** A first query, tried again while the database is unavailable, until the start's wait is over. */
async function reachAtStart(db: Database, log: FastifyBaseLogger): Promise<void> {
  const deadline = Date.now() + DATABASE_STARTUP_WAIT_MS;
  for (;;) {
    try {
      await sql`select 1`.execute(db.kysely);
      return;
    } catch (error) {
      if (!isDatabaseUnavailable(error) || Date.now() + STARTUP_RETRY_PAUSE_MS >= deadline) throw error;
      log.warn({ err: error }, 'database not reachable at start; trying again');
      await delay(STARTUP_RETRY_PAUSE_MS);
    }
  }
}

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
      connectTimeoutMs: DATABASE_STARTUP_CONNECT_TIMEOUT_MS,
      // A restarted server ends its clients' connections: reported (once) as the database lost.
      onPoolError: (error) => watch.failed(error) || app.log.error({ err: error }, 'idle PostgreSQL client failed'),
      onQuery: (event) => (event.level === 'query' ? watch.reached() : watch.failed(event.error)),
    });
  const close = async () => {
    if (!database) await db.destroy();
  };
  try {
    await reachAtStart(db, app.log);
    await migrateToLatest(db);
  } catch (error) {
    await close();
    throw error;
  }
  app.decorate('db', db);
  app.decorate('databaseWatch', watch);
  // Every plugin has started (onReady runs after them all): from now on a connection is waited
  // for as long as a request may wait.
  if (!database) app.addHook('onReady', async () => db.setConnectTimeout(DATABASE_CONNECT_TIMEOUT_MS));
  // Registered first, so closed last: every product's onClose (writing what is pending) runs before.
  app.addHook('onClose', close);
}

export default fp(databasePlugin, { name: 'database' });
