import { createHash, createHmac } from 'node:crypto';
import { clientKey } from '../../../platform/http/client-address';
import { emailKey, phoneKey, searchWords } from '../lead/lead-index';

/**
 * What the spam defence counts a sender's recent leads by, stored with each lead (leads.*_key).
 * The address (its client part, platform/http/client-address.ts) only as a keyed hash: the
 * address itself is never stored.
 */

export interface SenderKeys {
  email_key: string;
  phone_key: string;
  address_key: string;
  /** Null for a message too short to be told from another person's. */
  message_key: string | null;
}

/** A message shorter than this (in letters and digits) is not compared with others: «Доброго дня, цікавить SMM» is everyone's. */
const MESSAGE_KEY_MIN_CHARACTERS = 40;

export function messageKey(text: string): string | null {
  const words = searchWords(text);
  if (words.join('').length < MESSAGE_KEY_MIN_CHARACTERS) return null;
  return createHash('sha256').update(words.join(' ')).digest('base64url');
}

export function senderKeys(secret: string, sender: { email: string; phone: string; ip: string; text: string }): SenderKeys {
  return {
    email_key: emailKey(sender.email),
    phone_key: phoneKey(sender.phone),
    address_key: clientKey(sender.ip, secret, 'spam-sender'),
    message_key: messageKey(sender.text),
  };
}

/** A vouched-for e-mail's or phone's key in spam_trusted_senders. */
function trustedSenderKey(secret: string, kind: 'email' | 'phone', value: string): string {
  return createHmac('sha256', secret).update(`${kind}:${kind === 'email' ? emailKey(value) : phoneKey(value)}`).digest('base64url');
}

/** The keys a sender's e-mail and phone are trusted under in spam_trusted_senders («Не спам»). */
export function trustedSenderKeys(secret: string, sender: { email: string; phone: string }): string[] {
  return [trustedSenderKey(secret, 'email', sender.email), trustedSenderKey(secret, 'phone', sender.phone)];
}
