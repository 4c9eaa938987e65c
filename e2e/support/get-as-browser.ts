/**
 * A GET as a browser makes it, for suites that count answers while servers change under load:
 * when a kept-alive connection is closed before any answer (nginx closes its idle connections as
 * it reloads with new API addresses), browsers send the GET again on a new connection; so does
 * this, once, and calls `onResent`. Resolves to the status, or to the error as text.
 */
export async function getAsBrowser(url: string, onResent: () => void = () => {}): Promise<number | string> {
  const get = () =>
    fetch(url, { signal: AbortSignal.timeout(10_000) }).then(
      async (response) => (await response.arrayBuffer(), response.status),
      (error: Error) => String(error.cause ?? error),
    );
  const answer = await get();
  if (typeof answer !== 'string' || !/ECONNRESET|other side closed/.test(answer)) return answer;
  onResent();
  return get();
}
