import type { Reader } from '../api/response-guards';

/**
 * One thing the browser apps read from the API: its path below /api (also the key of the data the
 * server rendered the page with), how to load it and how to read its answer (what of it can be
 * shown, leaving out malformed list items).
 */
export interface ApiResource<T> {
  path: string;
  load(): Promise<unknown>;
  read: Reader<T>;
}
