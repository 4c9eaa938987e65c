import fs from 'node:fs';
import path from 'node:path';
import { resolveRemotesConfig, SAME_ORIGIN_REMOTES, type RemotesConfig } from '@agency/shared';

/** The monorepo root: api/src (tsx) and api/dist (compiled) both sit two levels below it. */
export const REPO_ROOT = path.resolve(__dirname, '../..');

/** Folder of the images the seed content points to (served under /media/). */
export const PUBLIC_DIR = path.resolve(__dirname, '../public');

/** `true`, or a comma-separated list of trusted proxy addresses/CIDR ranges (e.g. `127.0.0.1,10.0.0.0/8`). */
export type TrustProxy = boolean | string;

export interface AppConfig {
  port: number;
  host: string;
  /** `sqlite:<path>` or `postgres://…` */
  databaseUrl: string;
  logLevel: string;
  rateLimitMax: number;
  /** Milliseconds, or a duration string such as `1 minute` (passed to @fastify/rate-limit). */
  rateLimitWindow: number | string;
  trustProxy: TrustProxy;
  /** Root under which shell/dist and mfe-*\/dist are looked up (the repo root by default). */
  staticRoot: string;
  remotes: RemotesConfig;
}

type Env = Record<string, string | undefined>;

function parseInteger(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value.trim() === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) {
    throw new Error(`${name} must be a non-negative integer, got "${value}"`);
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

function parseWindow(value: string | undefined): number | string {
  if (value === undefined || value.trim() === '') return 60_000;
  return /^\d+$/.test(value.trim()) ? Number(value) : value.trim();
}

/** `sqlite:data/agency.sqlite` → an absolute path under the repo root; other URLs unchanged. */
export function normalizeDatabaseUrl(url: string | undefined): string {
  const value = url?.trim() || 'sqlite:data/agency.sqlite';
  if (!value.startsWith('sqlite:')) return value;
  const file = value.slice('sqlite:'.length);
  if (file === ':memory:') return value;
  return `sqlite:${path.resolve(REPO_ROOT, file)}`;
}

export function loadConfig(env: Env = process.env): AppConfig {
  return {
    port: parseInteger(env.PORT, 8080, 'PORT'),
    host: env.HOST?.trim() || '0.0.0.0',
    databaseUrl: normalizeDatabaseUrl(env.DATABASE_URL),
    logLevel: env.LOG_LEVEL?.trim() || 'info',
    rateLimitMax: parseInteger(env.RATE_LIMIT_MAX, 5, 'RATE_LIMIT_MAX'),
    rateLimitWindow: parseWindow(env.RATE_LIMIT_WINDOW),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    staticRoot: path.resolve(env.STATIC_ROOT?.trim() || REPO_ROOT),
    remotes: resolveRemotesConfig(env, SAME_ORIGIN_REMOTES),
  };
}

export function ensureParentDir(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
}
