import { useCallback, useEffect, useRef, type RefObject } from 'react';
import { FORM_TOKEN_FIELD, PROOF_OF_WORK_MEASURE, type FormName } from '@agency/shared';
import { fetchFormChallenge, type SubmissionGuard } from '@agency/shared/api-client';

/** A token older than this is asked for again before a submission (the API counts old ones against it). */
const TOKEN_FRESH_MS = 60 * 60 * 1000;
/** How long a submission waits for a proof still being solved before it goes without one. */
const PROOF_WAIT_MS = 10_000;

interface Guarding {
  startedAt: number;
  token: Promise<string | undefined>;
  proof: Promise<string | undefined>;
  controller: AbortController;
}

/** What solving took, as a User Timing measure (browsers without one just skip it). */
function recordProofTime(began: number): void {
  try {
    performance.measure(PROOF_OF_WORK_MEASURE, { start: began, end: performance.now() });
  } catch {
    // Nothing depends on the measure.
  }
}

function startGuarding(form: FormName): Guarding {
  const controller = new AbortController();
  // Any failure (no network, an old API) leaves the submission without: never without the person's fields.
  const challenge = Promise.resolve()
    .then(() => fetchFormChallenge(form))
    .catch(() => undefined);
  const proof = challenge.then(async (answer) => {
    if (!answer) return undefined;
    const began = performance.now();
    const { solveProof } = await import(/* webpackChunkName: "solve-proof" */ './solve-proof');
    const solved = await solveProof(answer.challenge, controller);
    if (solved) recordProofTime(began);
    return solved;
  });
  return {
    startedAt: Date.now(),
    token: challenge.then((answer) => answer?.token),
    proof: proof.catch(() => undefined),
    controller,
  };
}

/**
 * The token the server put into the page for this form (a hidden field at the page's end, tied to
 * the form): issued when the page was sent, so the time the person took counts from then. Undefined
 * once used, or when there is none (a form shown after a navigation in the browser) or it is old.
 */
function pageToken(form: HTMLFormElement | null, used: boolean): string | undefined {
  if (used || !form) return undefined;
  const field = form.elements.namedItem(FORM_TOKEN_FIELD);
  if (!(field instanceof HTMLInputElement) || field.value === '') return undefined;
  // `<form>.<issued at, ms, base 36>.<nonce>.<MAC>`: only the time is read here.
  const issuedAt = parseInt(field.value.split('.')[1] ?? '', 36);
  return Number.isFinite(issuedAt) && Date.now() - issuedAt < TOKEN_FRESH_MS ? field.value : undefined;
}

function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return Promise.race([promise, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms))]);
}

/**
 * The form's part of the spam defence: when the person focuses or types into the form, a form
 * token and a proof-of-work challenge are fetched and the challenge solved in the background, so
 * both are ready by the time the form is sent. The first submission sends the token the page came
 * with, if it has one. `guard` gives a submission what it sends beside its fields; `spent` after a
 * successful one, so the next submission gets its own. Nothing here can cost a person their
 * submission: without a token or proof it is still sent.
 */
export function useSpamGuard(form: FormName, formRef: RefObject<HTMLFormElement | null>) {
  const guarding = useRef<Guarding | undefined>(undefined);
  const pageTokenUsed = useRef(false);

  const start = useCallback(() => {
    const current = guarding.current;
    if (current && Date.now() - current.startedAt < TOKEN_FRESH_MS) return current;
    current?.controller.abort();
    guarding.current = startGuarding(form);
    return guarding.current;
  }, [form]);

  useEffect(() => {
    const element = formRef.current;
    if (!element) return;
    const onUse = () => {
      start();
    };
    element.addEventListener('focusin', onUse);
    element.addEventListener('input', onUse);
    return () => {
      element.removeEventListener('focusin', onUse);
      element.removeEventListener('input', onUse);
      guarding.current?.controller.abort();
    };
  }, [formRef, start]);

  const guard = useCallback(
    async (honeypot: string): Promise<SubmissionGuard> => {
      const { token, proof } = start();
      const fromPage = pageToken(formRef.current, pageTokenUsed.current);
      const [formToken, solved] = await Promise.all([fromPage ?? within(token, PROOF_WAIT_MS), within(proof, PROOF_WAIT_MS)]);
      return { honeypot, formToken, proof: solved };
    },
    [start, formRef],
  );

  const spent = useCallback(() => {
    pageTokenUsed.current = true;
    guarding.current?.controller.abort();
    guarding.current = undefined;
  }, []);

  return { guard, spent };
}
