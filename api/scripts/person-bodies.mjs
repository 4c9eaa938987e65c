// Submissions for the benchmarks as people's browsers send them past the spam defence: each its own
// person (e-mail, phone, message: the site counts a sender's leads), with a form token issued a
// minute before and a proof of work, made with the site's secrets read from its database, from a
// challenge of a small known counter, so making thousands costs the benchmark seconds, not the
// browsers' work. The site checks them as any other.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const dist = (file) => import(pathToFileURL(path.join(API_DIR, 'dist', file)).href);

/** The headers a browser's fetch sends with a form's JSON. */
export const BROWSER_FETCH_HEADERS = { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' };

/**
 * Makes people's contact messages for the site on `databaseUrl`: `body(n, base)` is the JSON of
 * person `n`'s message (from `base`'s fields), with a fresh token and proof.
 */
export async function personMinter(databaseUrl) {
  const { createDatabase } = await dist('platform/db/connection.js');
  const { readSpamSecrets } = await dist('site/leads/spam/spam-defence.js');
  const { FormTokens } = await dist('site/leads/spam/form-token.js');
  const { createProofChallenge } = await dist('site/leads/spam/proof-of-work.js');
  const { solveChallenge } = require('altcha-lib');
  const { deriveKey } = require('altcha-lib/algorithms/sha');
  const db = createDatabase(databaseUrl, { poolSize: 1 });
  let secrets;
  try {
    secrets = await readSpamSecrets(db);
  } finally {
    await db.destroy();
  }
  const tokens = new FormTokens(secrets.token);
  return {
    async body(n, base) {
      const now = Date.now();
      const challenge = await createProofChallenge(secrets.proof, 'contact', now, 1);
      const solution = await solveChallenge({ challenge, deriveKey });
      return JSON.stringify({
        ...base,
        email: `person${n}@example.com`,
        phone: `+380 67 ${String(n).padStart(7, '0')}`,
        message: `${base.message} №${n}`,
        form_token: tokens.issue('contact', now - 60_000),
        proof: Buffer.from(JSON.stringify({ challenge, solution })).toString('base64'),
      });
    },
  };
}

/** `count` people's contact messages (JSON), made ahead. */
export async function personBodies(databaseUrl, count, base) {
  const minter = await personMinter(databaseUrl);
  const bodies = [];
  for (let n = 0; n < count; n += 1) bodies.push(await minter.body(n, base));
  return bodies;
}
