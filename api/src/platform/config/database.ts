import fs from 'node:fs';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import { optionalText, readEnv, REPO_ROOT, variable, type Env } from './env';

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
  /**
   * The password of a `postgres://` DATABASE_URL kept apart from it, so the URL can sit in plain
   * configuration and the password in a secret (DATABASE_PASSWORD_FILE). Blank: the URL's own.
   */
  DATABASE_PASSWORD: optionalText(),
});

/** DATABASE_URL with DATABASE_PASSWORD put in it; a URL that carries a password of its own and a second one is refused. */
function withPassword(databaseUrl: string, password: string | undefined): string {
  if (password === undefined) return databaseUrl;
  if (!/^postgres(ql)?:\/\//.test(databaseUrl)) throw new Error('DATABASE_PASSWORD is only for a postgres:// DATABASE_URL');
  const url = new URL(databaseUrl);
  if (url.password) throw new Error('DATABASE_URL has a password and DATABASE_PASSWORD is set too: keep one of them');
  url.password = encodeURIComponent(password);
  return url.toString();
}

export function loadDatabaseConfig(env: Env): DatabaseConfig {
  const { DATABASE_URL, DATABASE_PASSWORD } = readEnv(DatabaseEnv, env);
  return { databaseUrl: withPassword(DATABASE_URL, DATABASE_PASSWORD) };
}

/** Makes the folder of a SQLite file, which SQLite does not create. */
export function ensureParentDir(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
}
