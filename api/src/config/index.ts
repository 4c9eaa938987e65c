import fs from 'node:fs';
import path from 'node:path';
import { remoteUrlOverrides, type RemoteName } from '@agency/shared';
import { loadLeadsConfig, type LeadsConfig } from './leads';
import { loadOpsWebhookConfig, type OpsWebhookConfig } from '../delivery/canary/ops-webhook';
import type { TelemetryBudget } from '../delivery/health/telemetry-limits';

/** The monorepo root: api/src (tsx) and api/dist (compiled) both sit two levels below it. */
export const REPO_ROOT = path.resolve(__dirname, '../../..');

/** Folder of the images the seed content points to (served under /media/). */
export const PUBLIC_DIR = path.resolve(__dirname, '../../public');

/** `true`, or a comma-separated list of trusted proxy addresses/CIDR ranges (e.g. `127.0.0.1,10.0.0.0/8`). */
export type TrustProxy = boolean | string;

export interface AppConfig {
  port: number;
  host: string;
  /** `sqlite:<path>` or `postgres://…` */
  databaseUrl: string;
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
  /** Root under which shell/dist and mfe-*\/dist are looked up (the repo root by default). */
  staticRoot: string;
  /** Manifest URLs of remotes hosted elsewhere (REMOTE_*_URL); the others are served by this server. */
  remoteUrls: Partial<Record<RemoteName, string>>;
  /**
   * Where remotes hosted elsewhere leave a copy of the build their own server serves
   * (REMOTE_BUILDS_DIR, `<folder>/dist` inside), so their slots are rendered on the server too;
   * without it they render in the browser only.
   */
  remoteBuildsDir?: string;
  /** Where published releases live: `<releasesDir>/<app>/<id>/` (see src/releases). */
  releasesDir: string;
  /** How many releases per app the release command keeps (the current and previous ones always stay). */
  releasesKeep: number;
  /**
   * RELEASE_PREVIEW_SECRET: signs preview links. Unset, a random secret kept in the releases folder
   * is used (see delivery/preview-token).
   */
  previewSecret?: string;
  /** Where automatic release decisions are sent (OPS_WEBHOOK_URL, OPS_WEBHOOK_SECRET); none by default. */
  opsWebhook?: OpsWebhookConfig;
  /**
   * The public origin of the site (SITE_URL, e.g. https://khvylia.com.ua) used in canonical links,
   * Open Graph URLs, robots.txt and the sitemap. Never taken from a request: see loadConfig.
   */
  siteUrl: string;
  /** Bytes of rendered pages the server keeps in memory (PAGE_CACHE_MAX_MB); 0 renders every request. */
  pageCacheMaxBytes: number;
  /**
   * Milliseconds a shutdown waits for requests in flight before it cuts the remaining
   * connections (SHUTDOWN_TIMEOUT, default 10 s).
   */
  shutdownTimeoutMs: number;
  /** Folder of the blog's Markdown articles (CONTENT_DIR), synced into the database at start. */
  contentDir: string;
  /** Folder of files the server writes and serves under /media/ (MEDIA_DIR): prepared covers. */
  mediaDir: string;
  /** Where each lead is sent as it arrives (LEADS_WEBHOOK_URL, TELEGRAM_*, SMTP_URL…); none by default. */
  leads: LeadsConfig;
  telemetry: TelemetryConfig;
  /** The bearer token `GET /metrics` asks for (METRICS_TOKEN); without one the route does not exist. */
  metricsToken?: string;
}

/** What visitors' browsers report about each release (see api/README.md, "Release health"). */
export interface TelemetryConfig {
  /** TELEMETRY=off: no beacons are sent and `POST /api/telemetry` does not exist. */
  enabled: boolean;
  /** TELEMETRY_SAMPLE: the share of page loads that report, 0 to 1 (default 1). */
  sample: number;
  /** TELEMETRY_RETENTION_DAYS: how long reports are kept (default 14). */
  retentionDays: number;
  /** TELEMETRY_RATE_LIMIT: beacons one IP address may send per minute (default 120). */
  rateLimitPerMinute: number;
  /** Rows each telemetry table may hold; TELEMETRY_BUDGET unless a test sets a smaller one. */
  budget?: TelemetryBudget;
}

type Env = Record<string, string | undefined>;

/** The default bound of the memory rendered pages take (PAGE_CACHE_MAX_MB). */
export const DEFAULT_PAGE_CACHE_MB = 64;

/**
 * `auto` (the default): readable lines when stdout is a terminal, JSON lines otherwise (a pipe, a
 * file, a container's log), which is what log collectors parse. `json` or `pretty` force one.
 */
export type LogFormat = 'auto' | 'json' | 'pretty';

const LOG_FORMATS: readonly LogFormat[] = ['auto', 'json', 'pretty'];

export function parseLogFormat(value: string | undefined): LogFormat {
  const format = value?.trim().toLowerCase() || 'auto';
  if ((LOG_FORMATS as readonly string[]).includes(format)) return format as LogFormat;
  throw new Error(`LOG_FORMAT must be json, pretty or auto (readable on a terminal, JSON otherwise), got "${value}"`);
}

function parseInteger(value: string | undefined, fallback: number, name: string, min = 0): number {
  if (value === undefined || value.trim() === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min) {
    throw new Error(`${name} must be an integer of at least ${min}, got "${value}"`);
  }
  return parsed;
}

export function parseTrustProxy(value: string | undefined): TrustProxy {
  if (value === undefined || value.trim() === '' || value === 'false' || value === '0') return false;
  if (value === 'true') return true;
  // A comma-separated list of addresses or CIDR ranges. (Fastify 5 treats a bare hop count
  // as "trust nobody", so numbers are not offered.)
  return value.trim();
}

const WINDOW_UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const WINDOW_PATTERN =
  /^(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?)?$/i;

/**
 * `60000`, `30 seconds`, `1 minute`, `2h` → milliseconds. Checked at start: an unparsable window
 * would otherwise fail every submission at run time.
 */
function parseWindow(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 60_000;
  const match = WINDOW_PATTERN.exec(value.trim());
  const unit = (match?.[2] ?? 'ms').toLowerCase();
  const unitMs = unit === 'ms' || unit.startsWith('milli') ? 1 : WINDOW_UNITS_MS[unit[0]!];
  const windowMs = match && unitMs ? Math.round(Number(match[1]) * unitMs) : NaN;
  if (!Number.isFinite(windowMs) || windowMs < 1) {
    throw new Error(`RATE_LIMIT_WINDOW must be milliseconds or a duration like "1 minute", got "${value}"`);
  }
  return windowMs;
}

/**
 * SITE_URL → its origin (`https://example.com`, no trailing slash), or undefined when unset. Only a
 * bare origin is accepted: a path, query or hash would be silently dropped from every link built on it.
 */
export function parseSiteUrl(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  const url = URL.canParse(trimmed) ? new URL(trimmed) : undefined;
  if (
    url &&
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.pathname === '/' &&
    // A bare `?` or `#` leaves search and hash empty, so the text itself is checked too.
    !/[?#]/.test(trimmed) &&
    // Credentials would be dropped from the origin without a word.
    url.username === '' &&
    url.password === ''
  ) {
    return url.origin;
  }
  throw new Error(`SITE_URL must be an http(s) origin such as https://example.com, got "${value}"`);
}

/**
 * REDIS_URL → the URL as given (trimmed), or undefined when unset. Checked at start: a typo would
 * otherwise only show as warnings while the server runs, with no limit applied at all. The value is
 * not echoed back, as it may carry a password.
 */
export function parseRedisUrl(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  const url = URL.canParse(trimmed) ? new URL(trimmed) : undefined;
  if (url && (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '') return trimmed;
  const got = url ? `a URL with the scheme "${url.protocol}"${url.hostname ? '' : ' and no host'}` : 'no URL';
  throw new Error(`REDIS_URL must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379, got ${got}`);
}

/** `sqlite:data/agency.sqlite` → an absolute path under the repo root; other URLs unchanged. */
export function normalizeDatabaseUrl(url: string | undefined): string {
  const value = url?.trim() || 'sqlite:data/agency.sqlite';
  if (!value.startsWith('sqlite:')) return value;
  const file = value.slice('sqlite:'.length);
  if (file === ':memory:') return value;
  return `sqlite:${path.resolve(REPO_ROOT, file)}`;
}

/** A path relative to the repo root (like the SQLite file), or absolute. */
function repoPath(value: string | undefined, fallback: string): string {
  return path.resolve(REPO_ROOT, value?.trim() || fallback);
}

/** Where articles are read from and their covers written to; shared by the server and `npm run content`. */
export function loadContentConfig(env: Env = process.env): Pick<AppConfig, 'contentDir' | 'mediaDir'> {
  return {
    contentDir: repoPath(env.CONTENT_DIR, 'content/blog'),
    mediaDir: repoPath(env.MEDIA_DIR, 'data/media'),
  };
}

/** The settings the release command needs; parsed on their own so it does not depend on the server's. */
export function loadReleaseConfig(
  env: Env = process.env,
): Pick<AppConfig, 'staticRoot' | 'remoteUrls' | 'remoteBuildsDir' | 'releasesDir' | 'releasesKeep' | 'previewSecret' | 'opsWebhook'> {
  return {
    previewSecret: env.RELEASE_PREVIEW_SECRET?.trim() || undefined,
    opsWebhook: loadOpsWebhookConfig(env),
    staticRoot: path.resolve(env.STATIC_ROOT?.trim() || REPO_ROOT),
    remoteUrls: remoteUrlOverrides(env),
    remoteBuildsDir: env.REMOTE_BUILDS_DIR?.trim() ? path.resolve(env.REMOTE_BUILDS_DIR.trim()) : undefined,
    releasesDir: repoPath(env.RELEASES_DIR, 'data/releases'),
    releasesKeep: parseInteger(env.RELEASES_KEEP, 5, 'RELEASES_KEEP', 1),
  };
}

/**
 * SITE_URL, required in production (NODE_ENV=production, as the container images run): the Host
 * and X-Forwarded-Host headers are chosen by the client, and a page or sitemap built on them
 * would, once cached by this server, nginx or a CDN, send every visitor to whatever host one
 * request named. Elsewhere (`npm start` on a laptop) it defaults to the server's own address.
 */
export function resolveSiteUrl(env: Env, port: number): string {
  const configured = parseSiteUrl(env.SITE_URL);
  if (configured) return configured;
  if (env.NODE_ENV?.trim() === 'production') {
    throw new Error(
      'SITE_URL must be set in production: the public origin of the site, such as https://khvylia.com.ua, which every canonical link, preview and sitemap address is built on',
    );
  }
  return `http://localhost:${port}`;
}

export function loadConfig(env: Env = process.env): AppConfig {
  const port = parseInteger(env.PORT, 8080, 'PORT');
  return {
    port,
    host: env.HOST?.trim() || '0.0.0.0',
    databaseUrl: normalizeDatabaseUrl(env.DATABASE_URL),
    logLevel: env.LOG_LEVEL?.trim() || 'info',
    logFormat: parseLogFormat(env.LOG_FORMAT),
    // At least 1: a limit of 0 would refuse every submission.
    rateLimitMax: parseInteger(env.RATE_LIMIT_MAX, 5, 'RATE_LIMIT_MAX', 1),
    rateLimitWindow: parseWindow(env.RATE_LIMIT_WINDOW),
    redisUrl: parseRedisUrl(env.REDIS_URL),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    siteUrl: resolveSiteUrl(env, port),
    pageCacheMaxBytes: parseInteger(env.PAGE_CACHE_MAX_MB, DEFAULT_PAGE_CACHE_MB, 'PAGE_CACHE_MAX_MB') * 1024 * 1024,
    shutdownTimeoutMs: parseInteger(env.SHUTDOWN_TIMEOUT, 10_000, 'SHUTDOWN_TIMEOUT'),
    leads: loadLeadsConfig(env),
    telemetry: loadTelemetryConfig(env),
    metricsToken: env.METRICS_TOKEN?.trim() || undefined,
    ...loadContentConfig(env),
    ...loadReleaseConfig(env),
  };
}

function parseSample(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 1;
  const sample = Number(value);
  if (!Number.isFinite(sample) || sample < 0 || sample > 1) throw new Error(`TELEMETRY_SAMPLE must be a number from 0 to 1, got "${value}"`);
  return sample;
}

export function loadTelemetryConfig(env: Env): TelemetryConfig {
  const switchValue = env.TELEMETRY?.trim().toLowerCase() || 'on';
  if (!['on', 'off'].includes(switchValue)) throw new Error(`TELEMETRY must be on or off, got "${env.TELEMETRY}"`);
  return {
    enabled: switchValue === 'on',
    sample: parseSample(env.TELEMETRY_SAMPLE),
    retentionDays: parseInteger(env.TELEMETRY_RETENTION_DAYS, 14, 'TELEMETRY_RETENTION_DAYS', 1),
    rateLimitPerMinute: parseInteger(env.TELEMETRY_RATE_LIMIT, 120, 'TELEMETRY_RATE_LIMIT', 1),
  };
}

export function ensureParentDir(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
}
