import type { SpamReasonCode, SpamSettings } from '@agency/shared';
import type { ProofReading } from './proof-of-work';
import type { TokenReading } from './form-token';

/**
 * How much each reason counts against a submission. A submission whose reasons add up to the
 * threshold (admins tune it; 10 unless they do) is held: stored with status «Спам» and its
 * reasons, never notified, answered as any other. A reason of weight 10 holds on its own;
 * lighter ones hold together.
 */
export const SPAM_WEIGHTS: Record<SpamReasonCode, number> = {
  'no-token': 10,
  'forged-token': 10,
  'wrong-form': 10,
  'reused-token': 10,
  'too-fast': 10,
  hurried: 4,
  'stale-token': 10,
  'old-token': 4,
  'no-proof': 6,
  'bad-proof': 10,
  links: 4,
  'many-links': 8,
  'url-only': 10,
  'markup-links': 8,
  // The agency is written to in Ukrainian, Russian and English; a text the detector is sure is in
  // another language is an offer, not a client (content-rules.ts).
  'unexpected-language': 10,
  'unexpected-script': 10,
  // The admins' list: phrases they count as spam, not words a client may use.
  'spam-phrase': 10,
  // A throwaway address cannot be answered: no agency wants it in its inbox.
  'disposable-email': 10,
  'same-message': 10,
  'address-rate': 5,
  'email-rate': 5,
  'phone-rate': 5,
};

/** When a form is sent, counted from when the page (or the form's script) got its token. */
export const SPAM_TIMING = {
  /** Nobody fills a form this fast… */
  tooFastSeconds: 3,
  /** …and few this fast (a browser's autofill and one line of text). */
  hurriedSeconds: 8,
  /** A page left open this long is unusual… */
  oldTokenHours: 4,
  /** …and this long, a token kept to be sent again. */
  staleTokenHours: 24,
} as const;

/** How a submission reached the API. */
export type SubmissionChannel =
  /** JSON from a browser (it says so in Sec-Fetch-Site): the form's own script. */
  | 'script'
  /** The HTML form posted by a browser with scripts off. */
  | 'no-script'
  /** JSON from a program that is no browser. */
  | 'direct';

export interface SubmissionEvidence {
  channel: SubmissionChannel;
  /** What the form token said; undefined when none was sent. */
  token: TokenReading | undefined;
  /** What the proof of work said; undefined when none was sent. */
  proof: ProofReading | undefined;
  /** Reasons the text gave (content-rules.ts) and the recent leads (spam-rates.ts). */
  content: readonly SpamReasonCode[];
  rates: readonly SpamReasonCode[];
  now: number;
}

function tokenReasons(token: TokenReading | undefined, now: number): SpamReasonCode[] {
  if (!token) return ['no-token'];
  if (!token.ok) return [token.problem === 'wrong-form' ? 'wrong-form' : 'forged-token'];
  const seconds = (now - token.issuedAt) / 1000;
  if (seconds < SPAM_TIMING.tooFastSeconds) return ['too-fast'];
  if (seconds < SPAM_TIMING.hurriedSeconds) return ['hurried'];
  if (seconds > SPAM_TIMING.staleTokenHours * 3600) return ['stale-token'];
  if (seconds > SPAM_TIMING.oldTokenHours * 3600) return ['old-token'];
  return [];
}

function proofReasons(channel: SubmissionChannel, proof: ProofReading | undefined): SpamReasonCode[] {
  // Only the forms' scripts solve the proof: a form posted with scripts off has none to send.
  if (channel === 'no-script') return [];
  if (!proof) return ['no-proof'];
  return proof.ok ? [] : ['bad-proof'];
}

/** Every reason the evidence gives, each once, in the order of SPAM_WEIGHTS. */
export function spamReasons(evidence: SubmissionEvidence): SpamReasonCode[] {
  return orderedReasons([...tokenReasons(evidence.token, evidence.now), ...proofReasons(evidence.channel, evidence.proof), ...evidence.content, ...evidence.rates]);
}

export function spamScore(reasons: readonly SpamReasonCode[]): number {
  return reasons.reduce((sum, reason) => sum + SPAM_WEIGHTS[reason], 0);
}

/** Whether reasons hold a submission: never one from a sender staff vouched for. */
export function isHeld(reasons: readonly SpamReasonCode[], settings: Pick<SpamSettings, 'threshold'>, trusted: boolean): boolean {
  return !trusted && spamScore(reasons) >= settings.threshold;
}

/**
 * What is certainly a bot, and so not stored at all (counted in /metrics): the spam trap filled,
 * or JSON without a form token from a program that is no browser. Everything else is stored, held
 * or not: a person's lead is never lost to a wrong guess.
 */
export function certainBot(channel: SubmissionChannel, honeypotFilled: boolean, tokenSent: boolean): 'honeypot' | 'direct-without-token' | undefined {
  if (honeypotFilled) return 'honeypot';
  if (channel === 'direct' && !tokenSent) return 'direct-without-token';
  return undefined;
}

/** Reasons each once, in the order of SPAM_WEIGHTS (as stored and shown). */
export function orderedReasons(reasons: readonly SpamReasonCode[]): SpamReasonCode[] {
  const found = new Set(reasons);
  return (Object.keys(SPAM_WEIGHTS) as SpamReasonCode[]).filter((reason) => found.has(reason));
}
