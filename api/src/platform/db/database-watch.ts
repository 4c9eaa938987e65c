import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable } from './database-errors';

/** What an answer refused for an unavailable database tells a client to wait before retrying: a restart takes seconds. */
export const DATABASE_RETRY_AFTER_SECONDS = '2';

/**
 * Tells the staff when the database was lost and when it was back, once each: every request
 * that meets an unreachable database reports it here, and every query that succeeds ends the
 * outage (the database buildApp opens reports each query's end here). The API needs no restart when the database returns (the pool reconnects per query).
 */
export class DatabaseWatch {
  private lostAt: number | undefined;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Reports an error a query met; true when it means the database is unavailable. */
  failed(error: unknown): boolean {
    if (!isDatabaseUnavailable(error)) return false;
    if (this.lostAt === undefined) {
      this.lostAt = this.now();
      this.log.error(
        { err: error },
        'database unreachable: submissions are answered 503 (retry) and published content is served from the cache until it is back',
      );
    }
    return true;
  }

  /** A query succeeded. */
  reached(): void {
    if (this.lostAt === undefined) return;
    const downForMs = this.now() - this.lostAt;
    this.lostAt = undefined;
    this.log.info({ downForMs }, 'database reachable again');
  }
}
