import { useState } from 'react';
import type { LeadSummary } from '@agency/shared';

/** How the page shows a refused change: the message, and on a version conflict the lead as it is now. */
export type ShowFailure = (failure: unknown, showConflict: (current: LeadSummary) => void, showError: (message: string) => void) => Promise<void>;

/**
 * One of the lead page's version-checked actions («Не спам», unlinking): busy while it runs, done
 * once it succeeded, or refused with its message (and, on a conflict, what the lead is now).
 */
export function useLeadAction(showFailure: ShowFailure) {
  const [error, setError] = useState('');
  const [conflict, setConflict] = useState<LeadSummary | undefined>(undefined);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  /** Forgets the last outcome (another lead was opened). */
  const reset = () => {
    setError('');
    setConflict(undefined);
    setDone(false);
  };

  /** Runs `action`; `done` once it resolved, then `afterwards` (a reload: the lead changed). */
  async function run(action: () => Promise<void>, afterwards: () => Promise<unknown>) {
    reset();
    setBusy(true);
    try {
      await action();
      setDone(true);
      await afterwards();
    } catch (failure) {
      await showFailure(failure, setConflict, setError);
    } finally {
      setBusy(false);
    }
  }

  return { error, conflict, done, busy, reset, run };
}
