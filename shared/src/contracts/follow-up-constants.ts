/**
 * The work after a lead arrives: the reply to the visitor, people who write again, assignment and
 * response times. Plain values (no TypeBox), so browser bundles may import them.
 */

export const FOLLOW_UP_LIMITS = {
  /** A new lead with the e-mail or phone of one this recent is the same person's. */
  duplicateWindowDays: 90,
  /** The response target until admins change it, in working minutes (2 working hours). */
  defaultTargetMinutes: 120,
  targetMinutesMin: 1,
  /** A working week. */
  targetMinutesMax: 45 * 60,
  /** A reply text, in characters. */
  replyMax: 5000,
  subjectMax: 200,
  /** A member's Telegram chat id (a number, negative for groups) or @channel name. */
  telegramChatIdMax: 64,
  /** Weeks the response report covers at most. */
  reportWeeksMax: 52,
  reportWeeksDefault: 12,
} as const;

/** What a reply's text may name; `{number}` is the lead's reference, as the visitor's answer gave it. */
export const REPLY_PLACEHOLDERS = ['name', 'number', 'message', 'answer_by', 'position'] as const;
export type ReplyPlaceholder = (typeof REPLY_PLACEHOLDERS)[number];

export const REPLY_PLACEHOLDER_LABELS: Record<ReplyPlaceholder, string> = {
  name: 'імʼя відвідувача',
  number: 'номер звернення',
  message: 'що відвідувач надіслав',
  answer_by: 'коли агенція відповість',
  position: 'вакансія (для відгуків)',
};

/** `{name}`-style placeholders in a text, each once, in order. */
export function placeholdersIn(text: string): string[] {
  return [...new Set([...text.matchAll(/\{([a-z_]+)\}/g)].map((match) => match[1]!))];
}

/** The outbox's channel of the visitor's reply, as the lead's page names its delivery. */
export const REPLY_CHANNEL = 'reply';
/** The outbox's channel of a lead's overdue alert (through Telegram), once per lead. */
export const ALERT_CHANNEL = 'alert';

/** How a lead's history names what the site did by itself (no member acted). */
export const AUTOMATIC_ACTOR = 'автоматично';
