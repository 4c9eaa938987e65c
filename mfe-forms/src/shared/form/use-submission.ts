import { useCallback, useLayoutEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import { toast } from 'react-toastify';
import { HONEYPOT_FIELD, newIdempotencyKey, sendWithRetries, TOAST_DURATION_MS, type FormName } from '@agency/shared';
import type { SubmissionGuard } from '@agency/shared/api-client';
import { readFieldErrors, type FieldErrors } from './read-field-errors';
import { ToastCloseButton } from './ToastCloseButton';
import { useSpamGuard } from './use-spam-guard';

interface SubmissionOptions<V extends { [K in keyof V]: string }> {
  /** Which form: the spam defence's token and challenge are its own. */
  form: FormName;
  /** Every field of the form, empty: the state after a successful submit too. */
  emptyValues: V;
  /** One try: sends the values, the spam trap's content with the form token and proof, and the submission's key; resolves on 2xx, rejects on anything else. */
  send: (values: V, guard: SubmissionGuard, idempotencyKey: string) => Promise<unknown>;
  messages: { success: string; error: string };
}

export interface Submission<V extends { [K in keyof V]: string }> {
  values: V;
  fieldErrors: FieldErrors<keyof V & string>;
  submitting: boolean;
  /** A try failed for a reason that may pass (no answer, 502-504) and the submission is being tried again. */
  retrying: boolean;
  setValue: <K extends keyof V & string>(name: K, value: V[K]) => void;
  handleSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** For the <form>: what the visitor typed into the server's markup before this script ran is taken over. */
  formRef: RefObject<HTMLFormElement | null>;
  /** The props that wire one field to this form: its name, value, change handler and message. */
  field: <K extends keyof V & string>(name: K) => BoundField<V[K]>;
}

export interface BoundField<T> {
  name: string;
  value: T;
  onChange: (value: T) => void;
  error?: string;
}

/**
 * The mechanics both forms share: controlled values, one request at a time, toasts raised through
 * the shared react-toastify (so they land in the shell's container), reset after success, values
 * kept after failure, and the server's per-field messages from a 400 answer.
 * A submission is sent under one idempotency key and tried again through a crash or a restart
 * behind the site (sendWithRetries): one toast at the end, whatever the number of tries.
 * Each submission carries the spam defence's form token and proof (useSpamGuard), waited for
 * a few seconds at most.
 * The browser's native validation runs before `submit` fires, so invalid forms never get here.
 */
export function useSubmission<V extends { [K in keyof V]: string }>({
  form,
  emptyValues,
  send,
  messages,
}: SubmissionOptions<V>): Submission<V> {
  const [values, setValues] = useState<V>(emptyValues);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<keyof V & string>>({});
  const [submitting, setSubmitting] = useState(false);
  const [retrying, setRetrying] = useState(false);
  // A ref, not the state: two clicks in the same frame both see the state before re-render.
  const inFlight = useRef(false);
  const formRef = useRef<HTMLFormElement | null>(null);
  const spamGuard = useSpamGuard(form, formRef);

  // The server sends the form, and a visitor may type into it before this script has taken it
  // over. React leaves what was typed on screen as it adopts the markup, but its state would still
  // be empty: it would then send, or the next render would show, empty fields. So the state starts
  // from what the fields hold, before anything is painted again.
  useLayoutEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const data = new FormData(form);
    const typed: Partial<V> = {};
    for (const name of Object.keys(emptyValues) as (keyof V & string)[]) {
      const value = data.get(name);
      if (typeof value === 'string' && value !== '') typed[name] = value as V[typeof name];
    }
    if (Object.keys(typed).length > 0) setValues((current) => ({ ...current, ...typed }));
    // Once, when the form first appears: later the state is what the fields show.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const setValue = useCallback(<K extends keyof V & string>(name: K, value: V[K]) => {
    setValues((current) => ({ ...current, [name]: value }));
    // The message described the old value; editing the field answers it.
    setFieldErrors((current) => {
      if (!(name in current)) return current;
      const next = { ...current };
      delete next[name];
      return next;
    });
  }, []);

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (inFlight.current) return;
    inFlight.current = true;
    setSubmitting(true);
    setFieldErrors({});
    const trap = event.currentTarget.elements.namedItem(HONEYPOT_FIELD);
    const honeypot = trap instanceof HTMLInputElement ? trap.value : '';
    const idempotencyKey = newIdempotencyKey();
    spamGuard
      .guard(honeypot)
      .then((guard) => sendWithRetries(() => send(values, guard, idempotencyKey), { onRetry: () => setRetrying(true) }))
      .then(
        () => {
          spamGuard.spent();
          toast.success(messages.success, { autoClose: TOAST_DURATION_MS, closeButton: ToastCloseButton });
          setValues(emptyValues);
        },
        (error: unknown) => {
          toast.error(messages.error, { closeButton: ToastCloseButton });
          setFieldErrors(readFieldErrors(error, Object.keys(emptyValues) as (keyof V & string)[]));
        },
      )
      .finally(() => {
        inFlight.current = false;
        setSubmitting(false);
        setRetrying(false);
      });
  };

  const field = <K extends keyof V & string>(name: K): BoundField<V[K]> => ({
    name,
    value: values[name],
    onChange: (value: V[K]) => setValue(name, value),
    error: fieldErrors[name],
  });

  return { values, fieldErrors, submitting, retrying, setValue, handleSubmit, formRef, field };
}
