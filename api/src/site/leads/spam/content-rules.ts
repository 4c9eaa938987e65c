import { isValid as isDeliverableEmail } from 'mailchecker';
import { detectAll } from 'tinyld';
import type { SpamReasonCode } from '@agency/shared';

/**
 * What a submission's own text says about it: links, markup, a language or script the agency is
 * not written to in, the admins' spam phrases, a throwaway e-mail. Reasons only; their weights are
 * the judge's (spam-judge.ts).
 */

export interface SubmittedText {
  /** Everything the person typed that a spammer fills with offers: the message or résumé, name and company or city. */
  text: string;
  /** The message or résumé alone: what a language is told by, and what a link alone may fill. */
  message: string;
  email: string;
}

/** A link however it is written: a scheme, `www.`, or a bare domain name with a common top-level domain. */
const LINK = /\b(?:https?:\/\/|www\.)[^\s<>"'\])]+|\b[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9-]{1,63})*\.(?:com|net|org|info|biz|top|xyz|site|online|shop|store|club|pro|io|co|cc|me|link|click|live|win|vip|bet|ru|ua|su|cn|in|vn|id|br|tk|ml|ga|cf|gq|icu|buzz|fun|website|space|tech)\b(?:\/[^\s<>"'\])]*)?/giu;
/**
 * Where people link to themselves: their social profiles. A person writes "our site, our
 * Instagram and Facebook"; a bot links its own domains. Links here, or to the domain of the
 * sender's own e-mail, are not counted.
 */
const OWN_PROFILE_HOSTS = ['instagram.com', 'facebook.com', 'fb.com', 't.me', 'telegram.me', 'tiktok.com', 'linkedin.com', 'youtube.com', 'youtu.be', 'x.com', 'twitter.com', 'behance.net', 'dribbble.com', 'google.com', 'goo.gl'];
const MARKUP_LINK = /<a\s[^>]*href|\[url[=\]]/i;
const LETTER = /\p{L}/gu;
const LATIN = /\p{Script=Latin}/gu;
const CYRILLIC = /\p{Script=Cyrillic}/gu;
/**
 * Shorter texts say too little for a language to be told; a language is taken only when the
 * detector is sure of it. (On the corpus, English texts of people were taken for another language
 * at a confidence of 0.5 at most; foreign offers mostly above 0.8.)
 */
const LANGUAGE_MIN_LETTERS = 60;
const LANGUAGE_MIN_CONFIDENCE = 0.8;
/** Languages people write to the agency in, besides Ukrainian and Russian (whose script is enough). */
const EXPECTED_LATIN_LANGUAGES = new Set(['en']);

function count(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

/** The text as phrases are looked for in it: lower case, one space between words. */
export function phraseText(text: string): string {
  return text.toLowerCase().normalize('NFKC').replace(/\s+/gu, ' ');
}

export function linksIn(text: string): string[] {
  return text.match(LINK) ?? [];
}

/** A link's host, lower case, without `www.`. */
function hostOf(link: string): string {
  return link.replace(/^[a-z]+:\/\//i, '').split(/[/?#:]/)[0]!.toLowerCase().replace(/^www\./, '');
}

const isUnder = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

/** The hosts a text links to, each once, but the sender's own profiles and e-mail domain. */
export function foreignHosts(text: string, email: string): string[] {
  const own = email.split('@')[1]?.toLowerCase() ?? '';
  const hosts = new Set(linksIn(text).map(hostOf));
  return [...hosts].filter((host) => !OWN_PROFILE_HOSTS.some((domain) => isUnder(host, domain)) && !(own !== '' && isUnder(host, own)));
}

function linkReasons({ text, message, email }: SubmittedText): SpamReasonCode[] {
  const reasons: SpamReasonCode[] = [];
  if (MARKUP_LINK.test(text)) reasons.push('markup-links');
  const hosts = foreignHosts(text, email);
  if (linksIn(message).length > 0 && count(message.replace(LINK, ' '), LETTER) < 3) reasons.push('url-only');
  else if (hosts.length >= 3) reasons.push('many-links');
  else if (hosts.length === 2) reasons.push('links');
  return reasons;
}

function languageReasons(text: string): SpamReasonCode[] {
  const words = text.replace(LINK, ' ');
  const letters = count(words, LETTER);
  if (letters < LANGUAGE_MIN_LETTERS) return [];
  const latin = count(words, LATIN);
  const cyrillic = count(words, CYRILLIC);
  // Letters of neither script (Han, Arabic, Hangul, Thai…): no one writes to the agency so.
  if (latin + cyrillic < letters * 0.7) return ['unexpected-script'];
  if (latin <= cyrillic) return [];
  const [best] = detectAll(words);
  return best && best.accuracy >= LANGUAGE_MIN_CONFIDENCE && !EXPECTED_LATIN_LANGUAGES.has(best.lang) ? ['unexpected-language'] : [];
}

/** The phrases of `phrases` the text holds (compared in lower case, whitespace folded). */
export function phrasesIn(text: string, phrases: readonly string[]): string[] {
  const haystack = phraseText(text);
  return phrases.filter((phrase) => {
    const needle = phraseText(phrase).trim();
    return needle !== '' && haystack.includes(needle);
  });
}

export function isDisposableEmail(email: string): boolean {
  return !isDeliverableEmail(email);
}

export function contentReasons(submitted: SubmittedText, phrases: readonly string[]): { reasons: SpamReasonCode[]; phrases: string[] } {
  const found = phrasesIn(submitted.text, phrases);
  const reasons = [...linkReasons(submitted), ...languageReasons(submitted.message)];
  if (found.length > 0) reasons.push('spam-phrase');
  if (isDisposableEmail(submitted.email)) reasons.push('disposable-email');
  return { reasons, phrases: found };
}
