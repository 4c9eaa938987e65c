import { Type } from '@sinclair/typebox';
import { integer, readEnv, type Env } from './env';

/** The default bound of the memory rendered pages take (PAGE_CACHE_MAX_MB). */
export const DEFAULT_PAGE_CACHE_MB = 64;

export interface PagesConfig {
  /** Bytes of rendered pages and their slots' markup the server keeps in memory (PAGE_CACHE_MAX_MB); 0 renders every request whole. */
  pageCacheMaxBytes: number;
}

export const PagesEnv = Type.Object({
  PAGE_CACHE_MAX_MB: integer(DEFAULT_PAGE_CACHE_MB, 0),
});

export function loadPagesConfig(env: Env): PagesConfig {
  return { pageCacheMaxBytes: readEnv(PagesEnv, env).PAGE_CACHE_MAX_MB * 1024 * 1024 };
}
