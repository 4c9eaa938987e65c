import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Database } from '../db/connection';

/**
 * A lease in the database (release_leases): of all the API processes on one database, the one
 * holding it does a kind of site-wide work. Holding means renewing before `ttlMs` runs out; a
 * process that stops renewing (it crashed, or lost the database) is replaced once its lease lapses.
 * Taking and renewing is one statement, so two processes can never both believe they hold it.
 */
export class SiteLease {
  /** This process, as the lease row names it. */
  readonly holder = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

  constructor(
    private readonly db: Database,
    readonly name: string,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes or renews the lease; whether this process holds it until about `ttlMs` from now. */
  async acquire(): Promise<boolean> {
    const now = this.now();
    const row = await this.db.kysely
      .insertInto('release_leases')
      .values({ name: this.name, holder: this.holder, expires_at: now + this.ttlMs })
      .onConflict((conflict) =>
        conflict
          .column('name')
          .doUpdateSet({ holder: this.holder, expires_at: now + this.ttlMs })
          .where((eb) => eb.or([eb('release_leases.holder', '=', this.holder), eb('release_leases.expires_at', '<', now)])),
      )
      .returning('holder')
      .executeTakeFirst();
    return row?.holder === this.holder;
  }

  /** Gives the lease up (at shutdown), so another process takes over without waiting. */
  async release(): Promise<void> {
    await this.db.kysely.deleteFrom('release_leases').where('name', '=', this.name).where('holder', '=', this.holder).execute();
  }
}
