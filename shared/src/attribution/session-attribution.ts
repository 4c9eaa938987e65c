import type { Attribution } from '../contracts/attribution';
import { ATTRIBUTION_KEYS } from '../contracts/attribution-keys';
import { RANDOM_ID_PATTERN } from '../util/random-id';

/**
 * Where this browser session's visit came from, kept in sessionStorage (no cookie, gone when the
 * tab is closed): the shell writes it on landing, the forms send it with each lead, and the
 * page-view beacon counts the visit by its id.
 */

/** The sessionStorage key. */
export const SESSION_ATTRIBUTION_KEY = 'agency-attribution';

export interface SessionAttribution {
  /** Random, and new with every landing that replaces the attribution: a visit is counted once by it. */
  sessionId: string;
  attribution: Attribution;
  /** A beacon with this visit has been sent: later page loads need not send it on their own. */
  counted?: boolean;
}

const SESSION_ID = new RegExp(RANDOM_ID_PATTERN);

/** The session's storage; none on the server, or where the browser refuses it (some private modes). */
function sessionStore(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}

function knownValues(value: unknown): Attribution {
  const attribution: Attribution = {};
  if (value === null || typeof value !== 'object') return attribution;
  for (const key of ATTRIBUTION_KEYS) {
    const text = (value as Record<string, unknown>)[key];
    if (typeof text === 'string' && text !== '') attribution[key] = text;
  }
  return attribution;
}

/** What this session remembers; undefined when nothing (or nothing readable) is kept. */
export function readSessionAttribution(): SessionAttribution | undefined {
  try {
    const text = sessionStore()?.getItem(SESSION_ATTRIBUTION_KEY);
    if (!text) return undefined;
    const value = JSON.parse(text) as Partial<SessionAttribution> | null;
    if (typeof value?.sessionId !== 'string' || !SESSION_ID.test(value.sessionId)) return undefined;
    return { sessionId: value.sessionId, attribution: knownValues(value.attribution), counted: value.counted === true };
  } catch {
    return undefined;
  }
}

/** Remembers it for the session; where storage is refused, nothing is remembered and nothing fails. */
export function writeSessionAttribution(value: SessionAttribution): void {
  try {
    sessionStore()?.setItem(SESSION_ATTRIBUTION_KEY, JSON.stringify(value));
  } catch {
    // Full or refused: the visit goes unattributed.
  }
}
