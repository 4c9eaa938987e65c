import { createChallenge, randomInt, verifySolution, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { FormName, ProofChallenge } from '@agency/shared';

/**
 * The invisible proof of work the forms' scripts solve while the person types (ALTCHA v2 through
 * altcha-lib, no third party): find the counter whose SHA-256 of salt and nonce starts with the
 * key prefix. The server picks the counter (deterministic mode), so making a challenge costs it
 * one hash and checking a solution one HMAC; the browser tries every counter up to it.
 */
export const PROOF_OF_WORK = {
  algorithm: 'SHA-256',
  /** The counter is drawn from this range: on average the number of hashes a browser computes. */
  counterMin: 5_000,
  counterMax: 15_000,
  /** A challenge is good this long after it was made; a form token lives longer (the page asks again). */
  lifetimeSeconds: 2 * 3600,
} as const;

/**
 * A challenge for `form`, signed. `counter`: the one to use instead of a random one from
 * PROOF_OF_WORK's range (a test or benchmark that needs a proof fast, or of a known cost).
 */
export async function createProofChallenge(secrets: ProofSecrets, form: FormName, now = Date.now(), counter = randomInt(PROOF_OF_WORK.counterMin, PROOF_OF_WORK.counterMax)): Promise<ProofChallenge> {
  const challenge = await createChallenge({
    algorithm: PROOF_OF_WORK.algorithm,
    cost: 1,
    counter,
    deriveKey,
    data: { form },
    expiresAt: Math.floor(now / 1000) + PROOF_OF_WORK.lifetimeSeconds,
    hmacSignatureSecret: secrets.signature,
    hmacKeySignatureSecret: secrets.key,
  });
  return challenge as ProofChallenge;
}

export interface ProofSecrets {
  /** Signs a challenge's parameters. */
  signature: string;
  /** Signs the key the solution must derive. */
  key: string;
}

export type ProofReading = { ok: true; nonce: string } | { ok: false; problem: 'malformed' | 'wrong-form' | 'expired' | 'invalid' };

/**
 * Reads what a form sent as its proof: base64 of the JSON `{ challenge, solution }` ALTCHA sends.
 * `ok` with the challenge's nonce (each is accepted once, by the caller) when it solves a
 * challenge this site made for this form, not yet expired.
 */
export async function checkProof(secrets: ProofSecrets, proof: string, form: FormName): Promise<ProofReading> {
  let payload: { challenge?: Challenge; solution?: { counter: number; derivedKey: string } };
  try {
    payload = JSON.parse(Buffer.from(proof, 'base64').toString('utf8'));
  } catch {
    return { ok: false, problem: 'malformed' };
  }
  const { challenge, solution } = payload ?? {};
  if (typeof challenge !== 'object' || challenge === null || typeof challenge.parameters !== 'object' || challenge.parameters === null || typeof solution !== 'object' || solution === null) {
    return { ok: false, problem: 'malformed' };
  }
  if (challenge.parameters.algorithm !== PROOF_OF_WORK.algorithm || challenge.parameters.cost !== 1) return { ok: false, problem: 'invalid' };
  let result;
  try {
    result = await verifySolution({ challenge, solution, deriveKey, hmacSignatureSecret: secrets.signature, hmacKeySignatureSecret: secrets.key });
  } catch {
    return { ok: false, problem: 'malformed' };
  }
  if (result.expired) return { ok: false, problem: 'expired' };
  if (!result.verified) return { ok: false, problem: 'invalid' };
  if (challenge.parameters.data?.form !== form) return { ok: false, problem: 'wrong-form' };
  return { ok: true, nonce: String(challenge.parameters.nonce) };
}
