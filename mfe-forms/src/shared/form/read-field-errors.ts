import { isAxiosError } from 'axios';
import type { ApiErrorBody } from '@agency/shared';

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

function isApiErrorBody(data: unknown): data is ApiErrorBody {
  if (typeof data !== 'object' || data === null || !('error' in data)) return false;
  const { error } = data as { error: unknown };
  return typeof error === 'object' && error !== null;
}

/**
 * The per-field messages of a 400 answer (`{error:{fields:{...}}}`), limited to the fields this
 * form shows. The API writes them in Ukrainian, so they are shown as they come.
 */
export function readFieldErrors<K extends string>(error: unknown, fieldNames: readonly K[]): FieldErrors<K> {
  if (!isAxiosError(error) || error.response?.status !== 400) return {};
  const data: unknown = error.response.data;
  if (!isApiErrorBody(data) || typeof data.error.fields !== 'object' || data.error.fields === null) return {};
  const fields = data.error.fields;
  const result: FieldErrors<K> = {};
  for (const name of fieldNames) {
    const message = fields[name];
    if (typeof message === 'string' && message.trim() !== '') result[name] = message;
  }
  return result;
}
