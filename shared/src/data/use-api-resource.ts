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

/** What the server rendered the page with: the first render matches the markup already on screen. */
function renderedOnServer<T>(resource: ApiResource<T>): Settled<T> | null {
  const rendered = serverDataFor(resource.path);
  if (rendered?.status === 200 && resource.isValid(rendered.body)) {
    return { path: resource.path, status: 'loaded', data: rendered.body };
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
 * then show nothing, and the visitor sees no error.
 */
export function useApiResource<T>(resource: ApiResource<T>, owner: string): ApiData<T> {
  const [settled, setSettled] = useState<Settled<T> | null>(() => renderedOnServer(resource));
  const { path } = resource;

  useEffect(() => {
    if (settled?.path === path) return;
    let active = true;
    resource.load().then(
      (data) => {
        if (!active) return;
        if (resource.isValid(data)) {
          setSettled({ path, status: 'loaded', data });
          return;
        }
        console.error(`[${owner}] GET /api${path} answered in an unexpected shape`, data);
        setSettled({ path, status: 'failed', notFound: false });
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
