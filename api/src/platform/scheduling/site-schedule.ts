import type { Database } from '../db/connection';
import { SiteLease } from './site-lease';

/**
 * Site-wide work done every `intervalMs` (and once at start) by whichever API process holds its
 * lease: one run at a time (a run asked for while one is going joins it), a failed run reported and
 * tried again at the next tick, and the lease given up on stop so another process takes over at once.
 */
export interface SiteSchedule<Report> {
  /** A run now (or the one going), if this process holds the lease: its report; undefined when another process holds it. */
  runOnce(): Promise<Report | undefined>;
  stop(): Promise<void>;
}

export interface SiteScheduleOptions<Report> {
  lease: { name: string; ttlMs: number };
  intervalMs: number;
  /** The clock (tests move it). */
  now?: () => number;
  /** The work; `carryOn` says whether a long run may go on (not stopping, lease still held). */
  run: (carryOn: () => Promise<boolean>) => Promise<Report>;
  onError: (error: unknown) => void;
}

export function startSiteSchedule<Report>(db: Database, { lease: { name, ttlMs }, intervalMs, now = Date.now, run, onError }: SiteScheduleOptions<Report>): SiteSchedule<Report> {
  const lease = new SiteLease(db, name, ttlMs, now);
  let stopping = false;
  let running: Promise<Report | undefined> | undefined;
  const carryOn = async () => !stopping && (await lease.acquire());
  const runOnce = () =>
    (running ??= (async () => ((await carryOn()) ? run(carryOn) : undefined))()
      .catch((error: unknown) => {
        onError(error);
        return undefined;
      })
      .finally(() => (running = undefined)));

  void runOnce();
  const timer = setInterval(() => void runOnce(), intervalMs).unref();
  return {
    runOnce,
    async stop() {
      stopping = true;
      clearInterval(timer);
      await running;
      await lease.release().catch(() => undefined);
    },
  };
}
