import { createHmac, randomBytes } from 'node:crypto';
import type { Database } from '../../platform/db/connection';
import { clientAddress } from '../../platform/http/client-address';

/**
 * Visitors are told apart without cookies or stored addresses, by Plausible's published method: a
 * keyed hash of the address and the user agent whose key (the salt) is random, one per Kyiv day,
 * shared by every API process through the database, and deleted when the next day's is made,
 * together with every hash made with it. Once a day has passed nobody, the site included, can
 * tell whether two visits were the same person's, or whose a hash was.
 */

/** The day's salt: 32 random bytes. */
const SALT_BYTES = 32;
/** Characters of a visitor's hash kept: 128 bits. */
const VISITOR_CHARS = 22;

export function visitorHash(salt: string, address: string, userAgent: string): string {
  return createHmac('sha256', salt).update(`${clientAddress(address)}\n${userAgent}`).digest('base64url').slice(0, VISITOR_CHARS);
}

export class DailySalt {
  private current: { day: string; salt: string } | undefined;

  constructor(private readonly db: Database) {}

  /**
   * The salt of `day` (a Kyiv `YYYY-MM-DD`): made by whichever process first needs it; the days
   * before it lose theirs, their visitors and what those were counted for, in the same transaction.
   */
  async forDay(day: string): Promise<string> {
    if (this.current?.day === day) return this.current.salt;
    const salt = await this.db.kysely.transaction().execute(async (trx) => {
      await trx
        .insertInto('analytics_salts')
        .values({ day, salt: randomBytes(SALT_BYTES).toString('base64url') })
        .onConflict((conflict) => conflict.column('day').doNothing())
        .execute();
      const row = await trx.selectFrom('analytics_salts').select('salt').where('day', '=', day).executeTakeFirstOrThrow();
      for (const table of ['analytics_salts', 'analytics_visitors', 'analytics_seen', 'analytics_lead_visitors'] as const) {
        await trx.deleteFrom(table).where('day', '<', day).execute();
      }
      return row.salt;
    });
    this.current = { day, salt };
    return salt;
  }
}
