import type { ReleaseExpectation } from '@agency/shared';
import { RELEASE_API_PATH } from '../release-api/release-api-routes';
import { packReleaseArchive } from '../release-api/release-archive';
import type { AppName } from '../releases/apps';
import type { ReleaseResult } from '../releases/commands';
import type { ReleaseStatus } from '../status/release-status';

/** A release API answered with an error (a refusal, a bad upload, a token it does not accept). */
export class ReleaseApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * What the command line asks the release API to do: the same commands as on the server. A change
 * names the state it acts on (`expect`: the app's revision the command line read just before).
 */
export type RemoteCommand =
  | { kind: 'publish' | 'stage'; dist: string; keep?: number; expect: { revision: number } }
  | { kind: 'canary'; dist?: string; id?: string; share: number; minViews: number; promoteAfter: number | null; keep?: number; expect: { revision: number } }
  | { kind: 'list' }
  | { kind: 'rollback' | 'abort'; expect: ReleaseExpectation }
  | { kind: 'promote'; id?: string; expect: ReleaseExpectation }
  | { kind: 'status'; since: Date };

/** How long a call may take: an upload of a large build over a slow link included. */
const TIMEOUT_MS = 120_000;

/** Tries of a call that got no answer, and the pause between them. */
const SEND_ATTEMPTS = 2;
const RETRY_DELAY_MS = 1000;

/**
 * The release API of the site at `site`, called with a team's token: `npm run release --
 * --site <url> --token <token>` from any machine (a team's CI) runs the commands there and prints
 * what the server's command line would.
 */
export async function callReleaseApi(site: string, token: string, app: AppName, command: RemoteCommand): Promise<ReleaseResult | ReleaseStatus> {
  const base = `${site.replace(/\/+$/, '')}${RELEASE_API_PATH}/${app}`;
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
  let url: string;
  let init: RequestInit;
  switch (command.kind) {
    case 'list':
      [url, init] = [base, { method: 'GET' }];
      break;
    case 'status':
      [url, init] = [`${base}/status?since=${encodeURIComponent(command.since.toISOString())}`, { method: 'GET' }];
      break;
    case 'rollback':
    case 'abort':
      [url, init] = [`${base}/${command.kind}`, { method: 'POST', body: JSON.stringify({ expect: command.expect }), headers: { 'content-type': 'application/json' } }];
      break;
    case 'promote':
      [url, init] = [
        `${base}/promote`,
        { method: 'POST', body: JSON.stringify({ expect: command.expect, ...(command.id && { release: command.id }) }), headers: { 'content-type': 'application/json' } },
      ];
      break;
    default: {
      if (command.kind === 'canary' && command.id) {
        const body = { expect: command.expect, release: command.id, share: command.share, minViews: command.minViews, ...(command.promoteAfter !== null && { promoteAfter: command.promoteAfter }), ...(command.keep && { keep: command.keep }) };
        [url, init] = [`${base}/canary`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }];
        break;
      }
      // A build to upload: published, staged or the candidate.
      const query = new URLSearchParams({ action: command.kind, expectRevision: String(command.expect.revision) });
      if (command.kind === 'canary') {
        query.set('share', String(command.share));
        query.set('minViews', String(command.minViews));
        if (command.promoteAfter !== null) query.set('promoteAfter', String(command.promoteAfter));
      }
      if (command.keep) query.set('keep', String(command.keep));
      const archive = await packReleaseArchive(command.dist!);
      [url, init] = [`${base}/builds?${query}`, { method: 'POST', body: new Uint8Array(archive), headers: { 'content-type': 'application/gzip' } }];
    }
  }
  let response: Response | undefined;
  // A change lost on the way (no answer) is sent once more as it was: it names the state it acts
  // on, so if the first one landed, the second is refused with that change instead of acting twice.
  for (let attempt = 1; !response; attempt += 1) {
    try {
      response = await fetch(url, { ...init, headers: { ...headers, ...(init.headers as Record<string, string> | undefined) }, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (error) {
      if (attempt < SEND_ATTEMPTS) {
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
        continue;
      }
      const why = (error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message;
      throw new ReleaseApiError(0, `Cannot reach the release API at ${site}: ${why}`);
    }
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    throw new ReleaseApiError(response.status, `The release API at ${site} answered ${response.status} with no JSON (is ${site} the site?)`);
  }
  if (!response.ok) {
    const message = (body as { error?: { message?: string } }).error?.message ?? `HTTP ${response.status}`;
    throw new ReleaseApiError(response.status, message);
  }
  return body as ReleaseResult | ReleaseStatus;
}
