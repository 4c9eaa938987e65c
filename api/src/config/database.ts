import fs from 'node:fs';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import { readEnv, REPO_ROOT, variable, type Env } from './env';

export interface DatabaseConfig {
  /** `sqlite:<path>` or `postgres://…` */
  databaseUrl: string;
}

/** `sqlite:data/agency.sqlite` → an absolute path under the repo root; other URLs unchanged. */
export function normalizeDatabaseUrl(url: string | undefined): string {
  const value = url?.trim() || 'sqlite:data/agency.sqlite';
  if (!value.startsWith('sqlite:')) return value;
  const file = value.slice('sqlite:'.length);
  if (file === ':memory:') return value;
  return `sqlite:${path.resolve(REPO_ROOT, file)}`;
}

export const DatabaseEnv = Type.Object({
  DATABASE_URL: variable(normalizeDatabaseUrl),
});

export function loadDatabaseConfig(env: Env): DatabaseConfig {
  return { databaseUrl: readEnv(DatabaseEnv, env).DATABASE_URL };
}

/** Makes the folder of a SQLite file, which SQLite does not create. */
export function ensureParentDir(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
}
