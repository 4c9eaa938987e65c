import type { FastifyServerOptions } from 'fastify';
import type pinoPretty from 'pino-pretty';
import type { AppConfig } from '../config';

/** Whether log lines should be readable ones rather than JSON (see LogFormat). */
export function wantsPrettyLogs(format: AppConfig['logFormat'], stdoutIsTty: boolean): boolean {
  return format === 'pretty' || (format === 'auto' && stdoutIsTty);
}

/**
 * Fastify's `logger` option. Readable lines go through pino-pretty as a stream in this thread,
 * writing synchronously (not as a worker-thread transport): every line is on stdout before the
 * `process.exit()` that ends a shutdown, and there is no worker to start or to flush. Formatting in
 * the main thread costs CPU, which matters only to JSON's audience, production, not to a terminal.
 */
export function loggerOptions(
  { logLevel, logFormat }: Pick<AppConfig, 'logLevel' | 'logFormat'>,
  stdoutIsTty = process.stdout.isTTY === true,
): NonNullable<FastifyServerOptions['logger']> {
  if (logLevel === 'silent') return false;
  if (!wantsPrettyLogs(logFormat, stdoutIsTty)) return { level: logLevel };
  // Loaded for a terminal only: production, the containers and the suites log JSON.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- synchronously, as the logger is configured
  const pretty: typeof pinoPretty = require('pino-pretty');
  return {
    level: logLevel,
    stream: pretty({
      sync: true,
      // One line per entry (Fastify's request logs would take eight), local time, no pid/host noise.
      singleLine: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
    }),
  };
}
