const closedUnderIt = (error: unknown) => /ECONNRESET|other side closed/.test(String((error as Error).cause ?? error));

/** How many times Chromium sends a request again after a kept-alive connection failed under it (kMaxRetryAttempts). */
const RESENDS = 2;

/**
 * A GET sent again when the kept-alive connection it went out on was closed before any answer, as
 * browsers do: a server closes a connection idle for its keep-alive time (65 s here) just as a
 * client that kept it nearly that long sends on it, and nginx closes its idle ones as it reloads
 * with new API addresses. Sent again up to twice, as Chromium does: the next idle connection of
 * the pool may have been closed by the same reload. `onResent` is told each time it happened.
 */
export async function fetchAsBrowser(url: string, init: RequestInit = {}, onResent: () => void = () => {}): Promise<Response> {
  for (let resent = 0; ; resent += 1) {
    try {
      return await fetch(url, init);
    } catch (error) {
      if (resent === RESENDS || !closedUnderIt(error)) throw error;
      onResent();
    }
  }
}

/**
 * A GET as a browser makes it, for suites that count answers while servers change under load
 * (see fetchAsBrowser). Resolves to the status, or to the error as text.
 */
export async function getAsBrowser(url: string, onResent: () => void = () => {}): Promise<number | string> {
  return fetchAsBrowser(url, { signal: AbortSignal.timeout(10_000) }, onResent).then(
    async (response) => (await response.arrayBuffer(), response.status),
    (error: Error) => String(error.cause ?? error),
  );
}
