import type { FormName } from '@agency/shared';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../src/platform/db/connection';
import { FormTokens } from '../../src/site/leads/spam/form-token';
import { createProofChallenge, type ProofSecrets } from '../../src/site/leads/spam/proof-of-work';
import { readSpamSecrets } from '../../src/site/leads/spam/spam-defence';

/** What a person's token and proof are made with: the site's secrets. */
export interface SiteSpamSecrets {
  token: string;
  proof: ProofSecrets;
}

/** The headers a browser's fetch sends with a form's JSON: what tells the API a form's script sent it. */
export const BROWSER_FETCH_HEADERS = { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' } as const;

/** How long the person of a test took to fill a form: well inside what the spam defence lets through. */
export const PERSON_FILL_SECONDS = 60;

/**
 * What a form's script sends beside a person's fields: a form token issued `fillSeconds` ago (as
 * when the page was served) and a solved proof of work. Both are made with the site's own secrets
 * (read from `db`, the site's database, so a site in another process takes them too), the proof
 * from a challenge of a small known counter: a test waits neither for the time a person takes nor
 * for the browser's work, and the API checks them as any other.
 */
export async function spamFields(db: Db, form: FormName, fillSeconds = PERSON_FILL_SECONDS): Promise<{ form_token: string; proof: string }> {
  return spamFieldsWith(await readSpamSecrets(db), form, fillSeconds);
}

/** spamFields with the secrets at hand (read from a database this process cannot reach directly). */
export async function spamFieldsWith(secrets: SiteSpamSecrets, form: FormName, fillSeconds = PERSON_FILL_SECONDS): Promise<{ form_token: string; proof: string }> {
  const now = Date.now();
  const challenge = await createProofChallenge(secrets.proof, form, now, 1);
  const solution = await solveChallenge({ challenge, deriveKey });
  return {
    form_token: new FormTokens(secrets.token).issue(form, now - fillSeconds * 1000),
    proof: Buffer.from(JSON.stringify({ challenge, solution })).toString('base64'),
  };
}

/**
 * A person's submission as the form's script sends it: `body` with a fresh token and proof, and a
 * browser's fetch headers (with `headers` over them). For `ctx.request('POST', …, options)`.
 */
export async function asPerson(
  ctx: { app: FastifyInstance } | { db: Db },
  form: FormName,
  body: object,
  { fillSeconds = PERSON_FILL_SECONDS, headers = {} }: { fillSeconds?: number; headers?: Record<string, string> } = {},
): Promise<{ json: object; headers: Record<string, string> }> {
  const db = 'app' in ctx ? ctx.app.db : ctx.db;
  return { json: { ...body, ...(await spamFields(db, form, fillSeconds)) }, headers: { ...BROWSER_FETCH_HEADERS, ...headers } };
}
