/** Name of the anti-spam field both forms send empty; bots that fill it are ignored. */
export const HONEYPOT_FIELD = 'website';
