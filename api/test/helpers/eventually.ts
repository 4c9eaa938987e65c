/**
 * Polls `read` until `check` accepts its value, then returns it; fails with `what` and the last
 * value when `timeoutMs` passes first. For outcomes that arrive asynchronously (a delivery, a
 * cache revalidation), never for timing assertions. `intervalMs` between reads: longer where a
 * read is itself work (a command asking a container engine) and the wait takes minutes.
 */
export async function eventually<T>(
  what: string,
  read: () => T | Promise<T>,
  check: (value: T) => boolean,
  timeoutMs = 10_000,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await read();
    if (check(last)) return last;
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last value: ${JSON.stringify(last)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
