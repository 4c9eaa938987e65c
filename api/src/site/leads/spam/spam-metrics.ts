import { Counter, type Registry } from 'prom-client';

/** The spam defence's counts on the site's registry: what was dropped unstored, and what was held. */
export function createSpamMetrics(registry: Registry) {
  const registers = [registry];
  const dropped = new Counter({
    name: 'agency_submissions_dropped_total',
    help: 'Submissions certainly from bots, answered but not stored, by form and reason (honeypot, direct-without-token)',
    labelNames: ['form', 'reason'] as const,
    registers,
  });
  const held = new Counter({
    name: 'agency_submissions_held_total',
    help: 'Submissions stored as spam (held from notification), by form',
    labelNames: ['form'] as const,
    registers,
  });
  return {
    dropped(form: string, reason: string) {
      dropped.inc({ form, reason });
    },
    held(form: string) {
      held.inc({ form });
    },
  };
}

export type SpamMetrics = ReturnType<typeof createSpamMetrics>;
