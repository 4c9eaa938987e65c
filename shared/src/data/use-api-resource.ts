import { useEffect, useState } from 'react';
import { serverDataFor } from '../page/server-data';
import type { ApiResource } from './api-resource';

/** The one set of states of anything the apps load from the API. */
export type ApiData<T> =
  | { status: 'loading' }
  | { status: 'loaded'; data: T }
  /** Logged already; `notFound` when the API answered 404 (a page may say so, a list shows nothing). */
  | { status: 'failed'; notFound: boolean };

type Settled<T> = { path: string } & Exclude<ApiData<T>, { status: 'loading' }>;

/**
 * An answer as the apps show it: what of it is well-formed. Malformed list items are left out and
 * logged (with `owner`, the app's name); an answer of the wrong shape altogether is a failed load.
 */
function settle<T>(resource: ApiResource<T>, answer: unknown, owner: string): Settled<T> {
  const { path } = resource;
  const reading = resource.read(answer);
  if (!reading) {
    console.error(`[${owner}] GET /api${path} answered in an unexpected shape`, answer);
    return { path, status: 'failed', notFound: false };
  }
  if (reading.dropped.length > 0) {
    console.error(`[${owner}] GET /api${path}: left out ${reading.dropped.length} malformed item(s)`, reading.dropped);
  }
  return { path, status: 'loaded', data: reading.data };
}

/** What the server rendered the page with: the first render matches the markup already on screen. */
function renderedOnServer<T>(resource: ApiResource<T>, owner: string): Settled<T> | null {
  const rendered = serverDataFor(resource.path);
  if (rendered?.status === 200) {
    const settled = settle(resource, rendered.body, owner);
    if (settled.status === 'loaded') return settled;
  }
  if (rendered?.status === 404) return { path: resource.path, status: 'failed', notFound: true };
  return null;
}

function isNotFoundError(error: unknown): boolean {
  return (error as { response?: { status?: unknown } } | null)?.response?.status === 404;
}

/**
 * Loads `resource` when the component mounts and again whenever its path changes. A failure or an
 * answer of the wrong shape is logged (with `owner`, the app's name) and ends in `failed`: lists
 * then show nothing, and the visitor sees no error. A list shows its well-formed items.
 */
export function useApiResource<T>(resource: ApiResource<T>, owner: string): ApiData<T> {
  const [settled, setSettled] = useState<Settled<T> | null>(() => renderedOnServer(resource, owner));
  const { path } = resource;

  useEffect(() => {
    if (settled?.path === path) return;
    let active = true;
    resource.load().then(
      (answer) => {
        if (active) setSettled(settle(resource, answer, owner));
      },
      (error: unknown) => {
        console.error(`[${owner}] GET /api${path} failed`, error);
        if (active) setSettled({ path, status: 'failed', notFound: isNotFoundError(error) });
      },
    );
    return () => {
      active = false;
    };
    // Only a new path loads: the resource object is rebuilt on every render, and `settled`
    // changing is this effect's own result.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [path]);

  // A result for another path is stale: the new one is still loading.
  if (!settled || settled.path !== path) return { status: 'loading' };
  const { path: _settledPath, ...state } = settled;
  return state as ApiData<T>;
}
