import { FORM_POST_PATHS, type SpamReasonCode } from '@agency/shared';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { FormTokens } from '../../../../src/site/leads/spam/form-token';
import { createProofChallenge } from '../../../../src/site/leads/spam/proof-of-work';
import { readSpamSecrets } from '../../../../src/site/leads/spam/spam-defence';
import { startTestApp, type TestContext } from '../../../helpers/app';
import { BROWSER_FETCH_HEADERS } from '../../../helpers/person-submission';
import { SPAM_CORPUS, type CorpusEntry } from './spam-corpus';

// The layered spam defence against the corpus the tests own: every entry sent, in order, as it
// says, over real HTTP to the site with its real database. Goal: at least 95 % of the bots held
// or dropped, no person held.

const JSON_PATHS = { contact: '/api/contact', 'job-application': '/api/jobs/apply' } as const;

type Outcome = { stored: false } | { stored: true; status: string; reasons: SpamReasonCode[] };

let ctx: TestContext;
let tokens: FormTokens;
let secrets: Awaited<ReturnType<typeof readSpamSecrets>>;
const outcomes = new Map<string, Outcome>();

/** A proof as a browser sends it: solved, or solved for another challenge and so wrong for its own. */
async function proofOf(entry: CorpusEntry): Promise<string | undefined> {
  if (entry.delivery.pow === 'none') return undefined;
  const challenge = await createProofChallenge(secrets.proof, entry.form, Date.now(), 1);
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('the proof could not be solved');
  const sent = entry.delivery.pow === 'invalid' ? { ...solution, derivedKey: solution.derivedKey.replace(/^./, (digit) => (digit === '0' ? '1' : '0')) } : solution;
  return Buffer.from(JSON.stringify({ challenge, solution: sent })).toString('base64');
}

const sentTokens = new Map<string, string>();

function tokenOf(entry: CorpusEntry): string | undefined {
  const { token, fillSeconds, replayOf } = entry.delivery;
  if (token === 'none') return undefined;
  if (token === 'forged') return `${entry.form}.${Date.now().toString(36)}.${'A'.repeat(16)}.${'B'.repeat(22)}`;
  if (token === 'replayed') {
    const captured = sentTokens.get(replayOf ?? '');
    if (!captured) throw new Error(`${entry.id} replays ${replayOf}, which sent no token`);
    return captured;
  }
  return tokens.issue(entry.form, Date.now() - fillSeconds * 1000);
}

async function send(entry: CorpusEntry): Promise<void> {
  const token = tokenOf(entry);
  if (token) sentTokens.set(entry.id, token);
  const { channel, address, userAgent } = entry.delivery;
  const headers: Record<string, string> = { 'user-agent': userAgent, 'x-forwarded-for': address };
  const fields = { ...entry.fields, website: '', ...(token && { form_token: token }) };
  const newest = async () => Number((await ctx.db.kysely.selectFrom('leads').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst())?.id ?? 0);
  const before = await newest();
  let status: number;
  if (channel === 'no-script') {
    const body = new URLSearchParams(Object.entries(fields).map(([name, value]): [string, string] => [name, String(value)])).toString();
    status = (await ctx.request('POST', FORM_POST_PATHS[entry.form], { body, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' } })).statusCode;
    expect(status).toBe(303);
  } else {
    const proof = await proofOf(entry);
    const json = { ...fields, ...(proof && { proof }) };
    status = (await ctx.request('POST', JSON_PATHS[entry.form], { json, headers: channel === 'script' ? { ...headers, ...BROWSER_FETCH_HEADERS } : headers })).statusCode;
    // Answered alike whatever became of it: a bot learns nothing.
    expect(status).toBe(201);
  }
  const lead = await ctx.db.kysely.selectFrom('leads').select(['id', 'status', 'spam_reasons']).where('id', '>', before).executeTakeFirst();
  outcomes.set(entry.id, lead ? { stored: true, status: lead.status, reasons: lead.spam_reasons ? (JSON.parse(lead.spam_reasons) as SpamReasonCode[]) : [] } : { stored: false });
}

const stopped = (outcome: Outcome | undefined) => outcome !== undefined && (!outcome.stored || outcome.status === 'spam');

beforeAll(async () => {
  ctx = await startTestApp({ trustProxy: true });
  secrets = await readSpamSecrets(ctx.app.db);
  tokens = new FormTokens(secrets.token);
  for (const entry of SPAM_CORPUS) await send(entry);
  // A hang guard only: the whole corpus, one submission after another, takes 10–30 s, more beside a busy lane.
}, 300_000);

afterAll(() => ctx.close());

describe('the spam defence against the corpus', () => {
  it('holds no person: every human submission is stored as «Нова»', () => {
    const held = SPAM_CORPUS.filter((entry) => entry.who === 'human' && stopped(outcomes.get(entry.id)));
    expect(held.map((entry) => ({ id: entry.id, note: entry.note, outcome: outcomes.get(entry.id) }))).toEqual([]);
  });

  it('holds or drops at least 95 % of the bots', () => {
    const bots = SPAM_CORPUS.filter((entry) => entry.who === 'bot');
    const through = bots.filter((entry) => !stopped(outcomes.get(entry.id)));
    const figures = Object.entries(
      bots.reduce<Record<string, { bots: number; through: number }>>((byKind, entry) => {
        const kind = (byKind[entry.kind] ??= { bots: 0, through: 0 });
        kind.bots += 1;
        if (!stopped(outcomes.get(entry.id))) kind.through += 1;
        return byKind;
      }, {}),
    );
    // The figures of docs/performance.md ("Spam"), printed by every run.
    console.log(`bots stopped: ${bots.length - through.length} of ${bots.length}\n${figures.map(([kind, { bots: n, through: t }]) => `${kind}: ${n - t}/${n}`).join('\n')}\nthrough: ${through.map((entry) => entry.id).join(', ')}`);
    expect((bots.length - through.length) / bots.length).toBeGreaterThanOrEqual(0.95);
  });

  it('drops only what is certainly a bot: JSON without a token from a program', () => {
    const dropped = SPAM_CORPUS.filter((entry) => outcomes.get(entry.id)?.stored === false);
    expect(dropped.every((entry) => entry.delivery.channel === 'direct' && entry.delivery.token === 'none')).toBe(true);
    expect(dropped.length).toBeGreaterThan(0);
  });

  it('keeps, with each held lead, the reasons it was held for', () => {
    const held = [...outcomes.values()].filter((outcome): outcome is Extract<Outcome, { stored: true }> => outcome.stored && outcome.status === 'spam');
    expect(held.length).toBeGreaterThan(0);
    expect(held.every((outcome) => outcome.reasons.length > 0)).toBe(true);
  });
});
