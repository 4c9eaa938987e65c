import type { ContactMessage, JobApplication } from '@agency/shared';
import { ContactMessageSchema, flattenLineBreaks, JobApplicationSchema, ONE_LINE_FIELDS } from '@agency/shared/contracts';
import { Value } from '@sinclair/typebox/value';
import { BOT_KIND_MINIMUMS, HUMAN_KIND_MINIMUMS, HUMAN_NO_SCRIPT_MINIMUM, SPAM_CORPUS, type CorpusEntry } from './spam-corpus';

// The corpus the spam-defence tests send is data those tests trust: this checks the data itself,
// so a defence test that fails points at the defence, not at a malformed or miscounted corpus.

const bots = SPAM_CORPUS.filter((entry) => entry.who === 'bot');
const humans = SPAM_CORPUS.filter((entry) => entry.who === 'human');

function countKinds(entries: readonly CorpusEntry[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const entry of entries) counts.set(entry.kind, (counts.get(entry.kind) ?? 0) + 1);
  return counts;
}

/** What the person typed into the form's big text field. */
function typedText(entry: CorpusEntry): string {
  return entry.form === 'contact' ? (entry.fields as ContactMessage).message : (entry.fields as JobApplication).resume_text;
}

describe('the spam corpus', () => {
  it('holds at least 220 bot and 220 human submissions', () => {
    expect(bots.length).toBeGreaterThanOrEqual(220);
    expect(humans.length).toBeGreaterThanOrEqual(220);
  });

  it('gives every entry its own id', () => {
    const ids = SPAM_CORPUS.map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('holds every kind at least as often as planned, and no other kind', () => {
    const shortfalls = (entries: readonly CorpusEntry[], minimums: Record<string, number>) => {
      const counts = countKinds(entries);
      const missing = Object.entries(minimums).filter(([kind, minimum]) => (counts.get(kind) ?? 0) < minimum);
      const unknown = [...counts.keys()].filter((kind) => !(kind in minimums));
      return [...missing.map(([kind, minimum]) => `${kind}: ${counts.get(kind) ?? 0} of ${minimum}`), ...unknown.map((kind) => `${kind}: unknown kind`)];
    };
    expect(shortfalls(bots, BOT_KIND_MINIMUMS)).toEqual([]);
    expect(shortfalls(humans, HUMAN_KIND_MINIMUMS)).toEqual([]);
  });

  it('sends fields the request schemas accept, as the server sees them after trimming', () => {
    const problems = SPAM_CORPUS.flatMap((entry) => {
      const schema = entry.form === 'contact' ? ContactMessageSchema : JobApplicationSchema;
      const found: string[] = [];
      const error = Value.Errors(schema, entry.fields).First();
      if (error !== undefined) found.push(`${entry.id}: ${error.path} ${error.message}`);
      for (const [field, value] of Object.entries(entry.fields)) {
        if (typeof value !== 'string') continue;
        if (value !== value.normalize('NFC').trim()) found.push(`${entry.id}: ${field} is not trimmed NFC text`);
        if ((ONE_LINE_FIELDS as readonly string[]).includes(field) && flattenLineBreaks(value) !== value) found.push(`${entry.id}: ${field} has a line break`);
      }
      return found;
    });
    expect(problems).toEqual([]);
  });

  it('replays only tokens an earlier page gave out', () => {
    const position = new Map(SPAM_CORPUS.map((entry, index) => [entry.id, index]));
    const problems = SPAM_CORPUS.flatMap((entry, index) => {
      const { token, replayOf } = entry.delivery;
      if (token !== 'replayed') return replayOf === undefined ? [] : [`${entry.id}: replayOf without a replayed token`];
      const source = replayOf === undefined ? undefined : SPAM_CORPUS[position.get(replayOf) ?? -1];
      if (source === undefined) return [`${entry.id}: replays ${replayOf ?? 'nothing'}, which is not in the corpus`];
      if ((position.get(source.id) ?? index) >= index) return [`${entry.id}: replays ${source.id}, which comes later`];
      if (source.delivery.token !== 'page') return [`${entry.id}: replays ${source.id}, which had no page token`];
      return [];
    });
    expect(problems).toEqual([]);
  });

  it('sends a proof of work through the script channel only', () => {
    const problems = SPAM_CORPUS.filter((entry) => entry.delivery.channel !== 'script' && entry.delivery.pow !== 'none').map((entry) => entry.id);
    expect(problems).toEqual([]);
  });

  it('sends humans the way people send forms', () => {
    const problems = humans.flatMap((entry) => {
      const { channel, token, pow, fillSeconds } = entry.delivery;
      const found: string[] = [];
      if (channel === 'direct' || token !== 'page') found.push(`${entry.id}: ${channel} with a ${token} token`);
      if (pow !== (channel === 'script' ? 'solved' : 'none')) found.push(`${entry.id}: proof of work ${pow} through ${channel}`);
      if (fillSeconds < 25 || fillSeconds > 2 * 3600) found.push(`${entry.id}: ${fillSeconds} s on the page`);
      return found;
    });
    expect(problems).toEqual([]);
    expect(humans.filter((entry) => entry.delivery.channel === 'no-script').length).toBeGreaterThanOrEqual(HUMAN_NO_SCRIPT_MINIMUM);
  });

  it('never gives two humans the same text or e-mail address', () => {
    const texts = humans.map(typedText).filter((text) => text !== '');
    const emails = humans.map((entry) => entry.fields.email.toLowerCase());
    expect(texts.filter((text, index) => texts.indexOf(text) !== index)).toEqual([]);
    expect(emails.filter((email, index) => emails.indexOf(email) !== index)).toEqual([]);
  });
});
