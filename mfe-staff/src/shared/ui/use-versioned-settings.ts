import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { AxiosError } from 'axios';
import { messageOf, statusOf } from '../api/staff-api';

/** A 409 of a settings save: the code it names and the settings as they are now. */
interface SettingsConflictBody<View> {
  error: { code: string; message: string };
  current: View;
}

export interface VersionedSettingsOptions<View extends { version: number }, Draft> {
  load(): Promise<View>;
  /** Saves `draft` made from `version`; resolves to what holds then. */
  send(draft: Draft, version: number): Promise<View>;
  draftOf(view: View): Draft;
  /** The error code of the 409 that says someone saved meanwhile. */
  conflictCode: string;
  /** A refusal's message and the field messages shown at the fields (by default, the message alone). */
  refusalOf?(failure: unknown): { message: string; fields: Record<string, string> };
}

/**
 * A settings form saved from the version it loaded (the spam and the follow-up settings): the
 * loaded view and the draft, a save that shows what holds now when someone saved meanwhile (and
 * keeps the refused edit to put back), a refusal's messages, and whether it was just saved.
 */
export function useVersionedSettings<View extends { version: number }, Draft>(options: VersionedSettingsOptions<View, Draft>, empty: Draft) {
  const given = useRef(options);
  given.current = options;
  const [view, setView] = useState<View | undefined>(undefined);
  const [draft, setDraft] = useState<Draft>(empty);
  const [error, setError] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [conflict, setConflict] = useState<{ message: string; refused: Draft } | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);

  const refusalOf = (failure: unknown) => given.current.refusalOf?.(failure) ?? { message: messageOf(failure), fields: {} };
  const show = (next: View) => {
    setView(next);
    setDraft(given.current.draftOf(next));
  };

  useEffect(() => {
    given.current.load().then(show, (failure: unknown) => setError(refusalOf(failure).message));
    // Loaded once, as the page opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const edit = (next: Draft) => {
    setDraft(next);
    setSaved(false);
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!view) return;
    setBusy(true);
    setError('');
    setFieldErrors({});
    setConflict(undefined);
    setSaved(false);
    try {
      show(await given.current.send(draft, view.version));
      setSaved(true);
    } catch (failure) {
      const answer = (failure as AxiosError<SettingsConflictBody<View>>).response?.data;
      if (statusOf(failure) === 409 && answer?.error.code === given.current.conflictCode) {
        setConflict({ message: answer.error.message, refused: draft });
        show(answer.current);
      } else {
        const refusal = refusalOf(failure);
        setError(refusal.message);
        setFieldErrors(refusal.fields);
      }
    } finally {
      setBusy(false);
    }
  }

  /** Puts the refused edit back into the form. */
  const restore = () => {
    if (conflict) setDraft(conflict.refused);
    setConflict(undefined);
  };

  return { view, draft, edit, save, restore, error, fieldErrors, conflict, saved, busy };
}
