/**
 * Wraps an async task so that calls made while it runs share that one run and its answer;
 * the next call after it settles (resolved or rejected) starts a fresh one.
 */
export function singleFlight<T>(run: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () =>
    (running ??= run().finally(() => {
      running = undefined;
    }));
}
