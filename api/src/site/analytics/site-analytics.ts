import { kyivDayOf, kyivDayText, type LeadKind } from '@agency/shared';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Delivery } from '../../delivery';
import type { Database } from '../../platform/db/connection';
import type { Clock } from '../../platform/lib/clock';
import { notCounted } from './counting-policy';
import { DailySalt } from './daily-salt';
import { pruneOldTotals, TOTALS_PRUNE_INTERVAL_MS } from './totals-retention';
import { VisitRecorder, type Sender } from './visit-recorder';

/** How often counted page views are written, and the day's salt checked. */
const FLUSH_INTERVAL_MS = 1000;

export interface SiteAnalytics {
  /** A lead was stored (not held as spam): it takes the device of its sender's visit. */
  leadArrived(request: FastifyRequest, lead: { kind: LeadKind; submissionId: number }): void;
  /** Writes what is pending and stops. */
  stop(): Promise<void>;
}

const senderOf = (request: FastifyRequest): Sender => ({ ip: request.ip, userAgent: request.headers['user-agent'] ?? '' });

/**
 * The site's own counting for the owner's dashboard, without cookies: the page views of the
 * telemetry beacons delivery accepts, unless the request is a bot's, a prefetch or asks not to
 * be tracked (counting-policy.ts), counted per visitor of the day (daily-salt.ts) by the recorder.
 * The day's salt is replaced as a new Kyiv day begins, whether or not anybody visits; totals past
 * their retention are deleted hourly (totals-retention.ts).
 */
export function startSiteAnalytics({ db, delivery, clock, log }: { db: Database; delivery: Delivery; clock: Clock; log: FastifyBaseLogger }): SiteAnalytics {
  const salt = new DailySalt(db);
  const recorder = new VisitRecorder(db, salt, () => clock.now().getTime(), (error) => log.warn({ err: error }, 'analytics: writing page views failed; kept for the next try'));
  delivery.onBeacon((request, batch) => {
    if (notCounted(request.headers) !== undefined) return;
    recorder.record(senderOf(request), batch).catch((error: unknown) => request.log.warn({ err: error }, 'analytics: counting a beacon failed'));
  });
  let prunedAt = 0;
  const tick = async () => {
    const now = clock.now().getTime();
    await salt.forDay(kyivDayText(kyivDayOf(now)));
    await recorder.flush();
    if (Math.abs(now - prunedAt) >= TOTALS_PRUNE_INTERVAL_MS) {
      prunedAt = now;
      await pruneOldTotals(db, now);
    }
  };
  const timer = setInterval(() => void tick().catch((error: unknown) => log.warn({ err: error }, 'analytics: the day’s salt, writing or pruning failed')), FLUSH_INTERVAL_MS).unref();
  return {
    leadArrived(request, lead) {
      recorder.leadArrived(senderOf(request), lead).catch((error: unknown) => request.log.warn({ err: error }, 'analytics: linking a lead to its visit failed'));
    },
    async stop() {
      clearInterval(timer);
      await recorder.flush();
    },
  };
}
