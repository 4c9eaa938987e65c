import { Type } from '@sinclair/typebox';
import { parseDuration } from '../lib/duration';
import { integer, invalid, oneOf, optionalText, readEnv, text, variable, type Env } from './env';

/**
 * `auto` (the default): readable lines when stdout is a terminal, JSON lines otherwise (a pipe, a
 * file, a container's log), which is what log collectors parse. `json` or `pretty` force one.
 */
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** `true`, or a comma-separated list of trusted proxy addresses/CIDR ranges (e.g. `127.0.0.1,10.0.0.0/8`). */
export type TrustProxy = boolean | string;

/** How the HTTP server listens, logs, limits submissions and stops. */
export interface ServerConfig {
  port: number;
  host: string;
  logLevel: string;
  /** How log lines look (LOG_FORMAT): see LogFormat. */
  logFormat: LogFormat;
  rateLimitMax: number;
  /** Milliseconds (RATE_LIMIT_WINDOW may also be a duration such as `1 minute`). */
  rateLimitWindow: number;
  /**
   * `redis://…` or `rediss://…` (REDIS_URL): the rate limit is then counted in this Redis, shared by
   * every API process; without it each process counts in its own memory.
   */
  redisUrl?: string;
  trustProxy: TrustProxy;
  /**
   * Milliseconds a shutdown waits for requests in flight before it cuts the remaining
   * connections (SHUTDOWN_TIMEOUT, default 10 s).
   */
  shutdownTimeoutMs: number;
  /** The bearer token `GET /metrics` asks for (METRICS_TOKEN); without one the route does not exist. */
  metricsToken?: string;
}

/** Checked at start: an unparsable window would otherwise fail every submission at run time. */
const rateLimitWindow = variable((value) => {
  if (value.trim() === '') return 60_000;
  const windowMs = parseDuration(value);
  if (windowMs === undefined || windowMs < 1) invalid(`must be milliseconds or a duration like "1 minute", got "${value}"`);
  return windowMs;
});

/**
 * Checked at start: a typo would otherwise only show as warnings while the server runs, with no
 * limit applied at all. The value is not echoed back, as it may carry a password.
 */
const redisUrl = variable((value) => {
  const trimmed = value.trim();
  if (!trimmed) return undefined;
  const url = URL.canParse(trimmed) ? new URL(trimmed) : undefined;
  if (url && (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '') return trimmed;
  const got = url ? `a URL with the scheme "${url.protocol}"${url.hostname ? '' : ' and no host'}` : 'no URL';
  return invalid(`must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379, got ${got}`);
});

// Fastify 5 treats a bare hop count as "trust nobody", so numbers are not offered.
const trustProxy = variable((value): TrustProxy => {
  if (value.trim() === '' || value === 'false' || value === '0') return false;
  if (value === 'true') return true;
  return value.trim();
});

export const ServerEnv = Type.Object({
  PORT: integer(8080, 0),
  HOST: text('0.0.0.0'),
  LOG_LEVEL: text('info'),
  LOG_FORMAT: oneOf(LOG_FORMATS, 'auto', 'json, pretty or auto (readable on a terminal, JSON otherwise)'),
  // At least 1: a limit of 0 would refuse every submission.
  RATE_LIMIT_MAX: integer(5, 1),
  RATE_LIMIT_WINDOW: rateLimitWindow,
  REDIS_URL: redisUrl,
  TRUST_PROXY: trustProxy,
  SHUTDOWN_TIMEOUT: integer(10_000, 0),
  METRICS_TOKEN: optionalText(),
});

export function loadServerConfig(env: Env): ServerConfig {
  const vars = readEnv(ServerEnv, env);
  return {
    port: vars.PORT,
    host: vars.HOST,
    logLevel: vars.LOG_LEVEL,
    logFormat: vars.LOG_FORMAT,
    rateLimitMax: vars.RATE_LIMIT_MAX,
    rateLimitWindow: vars.RATE_LIMIT_WINDOW,
    redisUrl: vars.REDIS_URL,
    trustProxy: vars.TRUST_PROXY,
    shutdownTimeoutMs: vars.SHUTDOWN_TIMEOUT,
    metricsToken: vars.METRICS_TOKEN,
  };
}
