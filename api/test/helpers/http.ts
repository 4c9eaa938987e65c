import http from 'node:http';

export interface HttpResponse {
  statusCode: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The bytes as sent (e.g. still compressed). */
  raw: Buffer;
  json<T = unknown>(): T;
}

export interface HttpRequestOptions {
  headers?: Record<string, string>;
  /** Sent as is; use `json` for a JSON body with its content type. */
  body?: string | Buffer;
  json?: unknown;
  /** Local address to connect from (127.0.0.x), to act as another client. */
  localAddress?: string;
}

/**
 * A plain HTTP request through a real socket (the suites run against listening servers). A path of
 * printable ASCII is sent exactly as written (`//x`, `/a/../b`, `%2e%2e` reach the server as a
 * client could send them); any other is percent-encoded as a browser would.
 */
export function httpRequest(baseUrl: string, method: string, path: string, options: HttpRequestOptions = {}): Promise<HttpResponse> {
  const url = new URL(path, baseUrl);
  const target = /^\/[\x21-\x7e]*$/.test(path) ? path : `${url.pathname}${url.search}`;
  const headers: Record<string, string> = { ...options.headers };
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const request = http.request(
      { method, hostname: new URL(baseUrl).hostname, port: new URL(baseUrl).port, path: target, headers, localAddress: options.localAddress, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const raw = Buffer.concat(chunks);
          const text = raw.toString('utf8');
          resolve({
            statusCode: response.statusCode ?? 0,
            headers: response.headers,
            body: text,
            raw,
            json: <T>() => JSON.parse(text) as T,
          });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    if (body !== undefined) request.write(body);
    request.end();
  });
}

/** The answer to a request; fails the test when none comes within `seconds` (a hang, not mere slowness). */
export async function answered(request: Promise<HttpResponse>, seconds = 15): Promise<HttpResponse> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${seconds} s`)), seconds * 1000);
  });
  try {
    return await Promise.race([request, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
