import { ATTRIBUTION_KEYS, type Attribution } from '@agency/shared';
import { AttributionSchema } from '@agency/shared/contracts';
import { Value } from '@sinclair/typebox/value';
import { normalizeTextInput } from './text-input';

/**
 * What a lead's attribution becomes: accepted, or dropped with the reason (for the log; the lead
 * is stored either way). Its texts follow the rules of every other field first (one Unicode form,
 * trimmed, an empty value left out), then AttributionSchema decides: known keys only, one line of
 * at most ATTRIBUTION_VALUE_MAX characters each.
 */
export type AttributionInput = { attribution: Attribution | null; dropped?: string };

const KNOWN_KEYS: ReadonlySet<string> = new Set(ATTRIBUTION_KEYS);

/** A reason fit for a log line, whatever the client sent as a key. */
const REASON_MAX = 200;

export function readAttribution(value: unknown): AttributionInput {
  const dropped = (reason: string) => ({ attribution: null, dropped: reason.slice(0, REASON_MAX) });
  if (value === undefined || value === null) return { attribution: null };
  if (typeof value !== 'object' || Array.isArray(value)) return dropped('not an object');
  const unknownKey = Object.keys(value).find((key) => !KNOWN_KEYS.has(key));
  if (unknownKey !== undefined) return dropped(`unknown key ${JSON.stringify(unknownKey)}`);
  const normalized: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(value)) {
    if (typeof raw !== 'string') {
      normalized[key] = raw;
      continue;
    }
    const input = normalizeTextInput(raw);
    if (!input.ok) return dropped(`/${key}: ${input.reason}`);
    if (input.text !== '') normalized[key] = input.text;
  }
  const error = Value.Errors(AttributionSchema, normalized).First();
  if (error) return dropped(`${error.path}: ${error.message}`);
  return { attribution: Object.keys(normalized).length > 0 ? (normalized as Attribution) : null };
}
