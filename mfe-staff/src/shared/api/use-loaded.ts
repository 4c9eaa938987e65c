import { useCallback, useEffect, useState } from 'react';
import { messageOf } from './staff-api';

export interface Loaded<T> {
  data: T | undefined;
  loading: boolean;
  error: string;
  /** Asks the API again (the shown data stays until the answer comes). */
  reload(): void;
  /** Shows `next` at once (a change's answer), until the next answer. */
  show(next: T): void;
}

/** What `load` answers, asked again when `key` changes or on reload; a slower earlier answer never replaces a later one. */
export function useLoaded<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState('');
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    setLoading(true);
    setError('');
    load().then(
      (next) => {
        if (!current) return;
        setData(next);
        setLoading(false);
      },
      (failure: unknown) => {
        if (!current) return;
        setError(messageOf(failure));
        setLoading(false);
      },
    );
    return () => {
      current = false;
    };
    // `load` is a new function each render; what it asks for is `key`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, attempt]);

  const reload = useCallback(() => setAttempt((count) => count + 1), []);
  return { data, loading, error, reload, show: setData };
}
