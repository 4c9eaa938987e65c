import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/sha';
import type { ProofChallenge } from '@agency/shared';

/**
 * Solves a form's proof-of-work challenge in the browser (altcha-lib, WebCrypto's SHA-256): the
 * payload the API checks, base64 of `{ challenge, solution }`, or undefined when aborted. Each try
 * awaits the digest, so the page stays responsive while it runs. Loaded with the form's first use,
 * never with the page.
 */
export async function solveProof(challenge: ProofChallenge, controller: AbortController): Promise<string | undefined> {
  const solution = await solveChallenge({ challenge, deriveKey, controller });
  if (!solution) return undefined;
  return btoa(JSON.stringify({ challenge, solution }));
}
