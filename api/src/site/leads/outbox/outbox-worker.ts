import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../platform/db/connection';
import type { LeadChannel } from './channels';
import { isLeadErased, isNotice } from '../lead/lead-payload';
import { DeliveryError } from './channels/lead-channel';
import { claimDueLeads, hasDueLeads, markAttemptFailed, markDelivered, type ClaimedLead } from './outbox-repository';
import { CLAIM_LEASE_MS, DELIVERY_TIMEOUT_MS, nextAttemptAt } from './retry-schedule';

/** How often an idle worker looks for due rows (other processes' leads, retries, expired claim leases). */
export const POLL_INTERVAL_MS = 1_000;
/** Rows claimed at once; they are delivered in parallel. */
const BATCH_SIZE = 25;

export interface OutboxWorker {
  /** A lead was just stored: look now rather than at the next poll. */
  wake(): void;
  /** Stops polling, aborts deliveries in flight (they are retried later) and waits for them. */
  stop(): Promise<void>;
}

export interface OutboxWorkerOptions {
  db: Db;
  channels: readonly LeadChannel[];
  log: FastifyBaseLogger;
  pollIntervalMs?: number;
}

/**
 * Sends the outbox's due rows through their channels, inside the API process: at least once
 * (a row is marked delivered only after its receiver accepted it), with retries on the
 * schedule of ./retry-schedule.ts, until the row's deadline marks it failed.
 */
export function startOutboxWorker({ db, channels, log, pollIntervalMs = POLL_INTERVAL_MS }: OutboxWorkerOptions): OutboxWorker {
  const byName = new Map(channels.map((channel) => [channel.name as string, channel]));
  const names = [...byName.keys()];
  const shutdown = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let wakeAgain = false;
  let stopped = false;

  /** Sends one row; true when its receiver accepted it. A failure is recorded here. */
  async function deliver(row: ClaimedLead): Promise<boolean> {
    const channel = byName.get(row.channel)!;
    const lead = { channel: row.channel, outboxId: row.id, key: row.payload.idempotency_key, attempt: row.attempts };
    try {
      const signal = AbortSignal.any([shutdown.signal, AbortSignal.timeout(DELIVERY_TIMEOUT_MS)]);
      const message = row.payload;
      if (isLeadErased(message)) {
        if (!channel.deliverErasure) throw new Error(`the ${row.channel} channel cannot deliver an erasure`);
        await channel.deliverErasure(message, signal);
      } else if (isNotice(message)) {
        if (!channel.deliverNotice) throw new Error(`the ${row.channel} channel cannot deliver ${message.event}`);
        await channel.deliverNotice(message, signal);
      } else {
        if (!channel.deliver) throw new Error(`the ${row.channel} channel cannot deliver a lead`);
        await channel.deliver(message, signal);
      }
      log.info({ lead }, 'lead delivered');
      return true;
    } catch (error) {
      const now = new Date();
      const message = error instanceof Error ? error.message : String(error);
      const retryAfterMs = error instanceof DeliveryError ? error.retryAfterMs : undefined;
      const retryAt = nextAttemptAt(now, row.attempts, new Date(row.give_up_at), retryAfterMs);
      await markAttemptFailed(db, row.id, message, retryAt);
      if (shutdown.signal.aborted) log.info({ lead }, 'lead delivery interrupted by the shutdown; the next start sends it');
      else if (retryAt) log.warn({ lead, err: message, retryAt: retryAt.toISOString() }, 'lead delivery failed; will retry');
      else log.error({ lead, err: message }, 'lead delivery failed for 24 hours; marked failed (npm run submissions -- outbox)');
      return false;
    }
  }

  async function drain(): Promise<void> {
    while (!stopped && (await hasDueLeads(db, names, new Date()))) {
      const claimed = await claimDueLeads(db, names, new Date(), { limit: BATCH_SIZE, claimLeaseMs: CLAIM_LEASE_MS });
      if (claimed.length === 0) return;
      const accepted = await Promise.all(claimed.map((row) => deliver(row)));
      // Delivered rows of a batch are recorded together; should this process die first, they
      // are sent again when their claim lease ends (at least once, same idempotency key).
      await markDelivered(
        db,
        claimed.filter((_, index) => accepted[index]).map((row) => row.id),
        new Date(),
      );
    }
  }

  function schedule(): void {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(run, pollIntervalMs);
  }

  function run(): void {
    if (stopped) return;
    if (running) {
      wakeAgain = true;
      return;
    }
    clearTimeout(timer);
    running = drain()
      .catch((error: unknown) => log.error({ err: error }, 'lead outbox: cannot read or update the outbox; trying again'))
      .finally(() => {
        running = undefined;
        if (wakeAgain) {
          wakeAgain = false;
          run();
        } else schedule();
      });
  }

  // Without a channel there is nothing to send: no polling at all.
  const enabled = names.length > 0;
  if (enabled) run();

  return {
    wake: () => {
      if (enabled) run();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      shutdown.abort(new Error('the API is shutting down'));
      await running;
      for (const channel of channels) channel.close?.();
    },
  };
}
