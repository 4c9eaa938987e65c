import type { SpamReasonCode } from '@agency/shared';
import type { Db } from '../../../platform/db/connection';
import type { SenderKeys } from './sender-keys';

/** How many leads a sender sends before more count against them, beyond the per-request rate limit. */
export const SPAM_RATES = {
  /** Leads from one address within an hour: an office sends a few, a script dozens. */
  addressPerHour: 5,
  /** Leads with one e-mail, and with one phone, within a day. */
  emailPerDay: 3,
  phonePerDay: 3,
  /** The same message from another e-mail within this many days is a campaign. */
  sameMessageDays: 7,
} as const;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** What the leads that arrived recently say about this sender (leads of every status count). */
export async function rateReasons(db: Db, keys: SenderKeys, now: number): Promise<SpamReasonCode[]> {
  const since = (ms: number) => new Date(now - ms).toISOString();
  // Counted up to the limit only: a flood from one sender costs each request the same few rows.
  const recent = (column: 'address_key' | 'email_key' | 'phone_key', value: string, window: number, limit: number) =>
    db.kysely
      .selectFrom((eb) => eb.selectFrom('leads').select('id').where(column, '=', value).where('received_at', '>=', since(window)).limit(limit).as('recent'))
      .select((eb) => eb.fn.countAll<number | string>().as('n'));
  const campaign = keys.message_key === null
    ? Promise.resolve(undefined)
    : db.kysely
        .selectFrom('leads')
        .select('id')
        .where('message_key', '=', keys.message_key)
        .where('email_key', '!=', keys.email_key)
        .where('received_at', '>=', since(SPAM_RATES.sameMessageDays * DAY))
        .limit(1)
        .executeTakeFirst();
  const [address, email, phone, same] = await Promise.all([
    recent('address_key', keys.address_key, HOUR, SPAM_RATES.addressPerHour).executeTakeFirstOrThrow(),
    recent('email_key', keys.email_key, DAY, SPAM_RATES.emailPerDay).executeTakeFirstOrThrow(),
    recent('phone_key', keys.phone_key, DAY, SPAM_RATES.phonePerDay).executeTakeFirstOrThrow(),
    campaign,
  ]);
  const reasons: SpamReasonCode[] = [];
  if (Number(address.n) >= SPAM_RATES.addressPerHour) reasons.push('address-rate');
  if (Number(email.n) >= SPAM_RATES.emailPerDay) reasons.push('email-rate');
  if (Number(phone.n) >= SPAM_RATES.phonePerDay) reasons.push('phone-rate');
  if (same) reasons.push('same-message');
  return reasons;
}
