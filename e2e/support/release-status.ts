import { randomBytes } from 'node:crypto';
import { callReleaseApi } from '../../api/src/delivery/cli/release-client';
import type { AppName } from '../../api/src/delivery';
import { DEFAULT_STATUS_WINDOW_MS } from '../../api/src/delivery/status/release-status';
import type { RunningSite } from './site';

export interface ReleaseStatusReader {
  /** What the site is started with: a team token that may read these apps (RELEASE_TOKENS). */
  env: Record<string, string>;
  /** An app's report, the JSON `npm run release -- <app> --status --format json` prints. */
  read<Report>(site: RunningSite, app: AppName): Promise<Report>;
}

/**
 * An app's `--status` report as a team reads it from its own machine: through the site's release
 * API, with the command's own client and a token the site is given at its start. What a test that
 * waits on a decision asks every quarter of a second: a command started for each question (npm,
 * Node, the release modules: over a CPU-second each) kept a core busy while the test waited.
 */
export function releaseStatusReader(apps: readonly AppName[]): ReleaseStatusReader {
  const token = randomBytes(32).toString('hex');
  return {
    env: { RELEASE_TOKENS: `e2e-status=${apps.join(',')}:${token}` },
    read: async <Report>(site: RunningSite, app: AppName) =>
      (await callReleaseApi(site.baseUrl, token, app, { kind: 'status', since: new Date(Date.now() - DEFAULT_STATUS_WINDOW_MS) })) as Report,
  };
}
