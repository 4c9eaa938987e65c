import { UNRELEASED } from '@agency/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../platform/db/connection';
import { APP_NAMES } from '../releases/apps';
import { decideCandidate, type ReleaseContext } from '../releases/commands';
import { ConcurrentChangeError } from '../releases/refused-error';
import type { ReleaseReader } from '../releases/reader';
import { candidateHealth } from './candidate-health';
import { SiteLease } from '../../platform/scheduling/site-lease';
import type { OpsMessage } from '../../platform/alerts/ops-webhook';

/** How often the process holding the lease looks at every canary. */
export const DECISION_INTERVAL_MS = 1000;
/** A lease not renewed for this long is taken over by another process. */
export const DECISION_LEASE_TTL_MS = 5000;
export const DECISION_LEASE = 'release-decisions';

/** The JSON body of each message to the ops webhook about an automatic decision. */
export interface ReleaseDecisionMessage extends OpsMessage {
  type: 'release_decision';
  app: string;
  release: string;
  action: 'promoted' | 'rolled_back';
  reason: string;
  /** What every visitor gets now. */
  current: string;
}

export interface CanaryControllerOptions {
  db: Database;
  context: ReleaseContext;
  /**
   * The releases as the process serves them (read about once a second): what it looks at. A
   * decision reads the state again under the lock.
   */
  releases: ReleaseReader;
  log: FastifyBaseLogger;
  /** The site's public origin, named in each message. */
  site: string;
  /** Sends a decision to the team's channel (OPS_WEBHOOK_URL), when one is set. */
  notify?: (message: ReleaseDecisionMessage, idempotencyKey: string) => Promise<unknown>;
  intervalMs?: number;
}

/**
 * Rolls a canary's candidate back, or promotes it, by its health (canary-judge.ts), once for
 * the site however many API processes run: each second, while some app runs a canary, a process
 * takes or renews the database lease, and only its holder judges and decides. The decision is
 * written to the releases' state under the release command's lock (so it never interleaves with a
 * person's command), and every process serves it within a second, as it does any release change.
 */
export function startCanaryController({ db, context, releases, log, site, notify, intervalMs = DECISION_INTERVAL_MS }: CanaryControllerOptions) {
  const lease = new SiteLease(db, DECISION_LEASE, DECISION_LEASE_TTL_MS);
  /** The hold last reported per app, so a held promotion is logged once, not every second. */
  const held = new Map<string, string>();
  let leased = false;

  async function look(): Promise<void> {
    const states = await Promise.all(APP_NAMES.map(async (app) => ({ app, state: await releases.get(app) })));
    const canaries = states.filter(({ state }) => state.candidate);
    // No canary, no database work.
    if (canaries.length === 0) return;
    leased = await lease.acquire();
    if (!leased) return;
    for (const { app, state } of canaries) {
      const health = await candidateHealth(db, app, state);
      if (!health) continue;
      const { verdict } = health;
      const id = state.candidate!.id;
      if (verdict.action === 'hold') {
        if (held.get(app) !== `${id}\n${verdict.reason}`) log.warn({ app, release: id, reason: verdict.reason }, 'canary: automatic promotion held');
        held.set(app, `${id}\n${verdict.reason}`);
        continue;
      }
      if (verdict.action === 'wait') continue;
      const action = verdict.action === 'promote' ? 'promoted' : 'rolled_back';
      const decided = await decideCandidate(context, app, id, action, verdict.reason);
      if (!decided) continue;
      // The decision may differ from the verdict: a promotion the compatibility gate refuses is a rollback.
      log.warn({ app, release: decided.release, action: decided.action, reason: decided.reason, at: decided.at }, 'canary: candidate decided');
      const current = decided.action === 'promoted' ? decided.release : (state.current?.id ?? UNRELEASED);
      void notify?.(
        { type: 'release_decision', site, app, release: decided.release, action: decided.action, reason: decided.reason, at: decided.at, current },
        `${app}:${decided.release}:${decided.action}:${decided.at}`,
      );
    }
  }

  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= look()
      .catch((error: unknown) => {
        // A person's release command changed the app meanwhile: the next look decides on the new state.
        if (!(error instanceof ConcurrentChangeError)) log.error({ err: error }, 'canary: looking at the candidates failed; trying again');
      })
      .finally(() => (running = undefined));
  }, intervalMs).unref();

  return {
    /** Whether this process made the last decisions (it held the lease at its last look). */
    get leading() {
      return leased;
    },
    async stop(): Promise<void> {
      clearInterval(timer);
      await running;
      if (leased) await lease.release().catch(() => undefined);
    },
  };
}
