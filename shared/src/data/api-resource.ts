import type { Guard } from '../api/response-guards';

/**
 * One thing the browser apps read from the API: its path below /api (also the key of the data the
 * server rendered the page with), how to load it and how to recognise a well-formed answer.
 */
export interface ApiResource<T> {
  path: string;
  load(): Promise<unknown>;
  isValid: Guard<T>;
}
