import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import type pinoPretty from 'pino-pretty';
import type { AppConfig } from '../config';

/**
 * Query parameters whose values name a person (a data request's subject, an address, a phone, the
 * inbox's search): a URL carrying one is logged with the value replaced. Routes take such values
 * in a body; this covers a client that still puts them in a URL, and any route added later.
 */
const PERSONAL_QUERY_KEYS = new Set(['subject', 'email', 'phone', 'q']);
export const REDACTED = '[redacted]';

function decodedKey(key: string): string {
  try {
    return decodeURIComponent(key.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return key.toLowerCase();
  }
}

/** `url` with the value of every PERSONAL_QUERY_KEYS parameter replaced by REDACTED. */
export function redactedUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const key = equals === -1 ? pair : pair.slice(0, equals);
      return PERSONAL_QUERY_KEYS.has(decodedKey(key)) ? `${key}=${REDACTED}` : pair;
    });
  return `${url.slice(0, queryStart)}?${query.join('&')}`;
}

/** Fastify's own request serializer (the same fields), with the URL redacted. It is handed the Fastify request. */
function serializeRequest(raw: unknown) {
  const request = raw as FastifyRequest;
  return {
    method: request.method,
    url: redactedUrl(request.url ?? ''),
    version: request.headers?.['accept-version'] as string | undefined,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Whether log lines should be readable ones rather than JSON (see LogFormat). */
export function wantsPrettyLogs(format: AppConfig['logFormat'], stdoutIsTty: boolean): boolean {
  return format === 'pretty' || (format === 'auto' && stdoutIsTty);
}

/**
 * Fastify's `logger` option. Readable lines go through pino-pretty as a stream in this thread,
 * writing synchronously (not as a worker-thread transport): every line is on stdout before the
 * `process.exit()` that ends a shutdown, and there is no worker to start or to flush. Formatting in
 * the main thread costs CPU, which matters only to JSON's audience, production, not to a terminal.
 * `stream` takes JSON lines instead of stdout (tests read what was logged).
 */
export function loggerOptions(
  { logLevel, logFormat }: Pick<AppConfig, 'logLevel' | 'logFormat'>,
  stdoutIsTty = process.stdout.isTTY === true,
  stream?: { write(line: string): void },
): NonNullable<FastifyServerOptions['logger']> {
  if (logLevel === 'silent') return false;
  const serializers = { req: serializeRequest };
  if (stream) return { level: logLevel, serializers, stream };
  if (!wantsPrettyLogs(logFormat, stdoutIsTty)) return { level: logLevel, serializers };
  // Loaded for a terminal only: production, the containers and the suites log JSON.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- synchronously, as the logger is configured
  const pretty: typeof pinoPretty = require('pino-pretty');
  return {
    level: logLevel,
    serializers,
    stream: pretty({
      sync: true,
      // One line per entry (Fastify's request logs would take eight), local time, no pid/host noise.
      singleLine: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
    }),
  };
}
