import { DELIVERY_ACTIONS, type DeliveryAction, type DeliveryEvent, type ReleaseCandidate } from '@agency/shared';

/**
 * What happened to a release on its way to visitors, one decision (by a person or by the site), and
 * a canary's candidate with its rules: the contracts' shapes (@agency/shared), which `--status` and
 * the console's «Релізи» send as they are.
 */
export { DELIVERY_ACTIONS, type DeliveryAction, type DeliveryEvent };
export type Candidate = ReleaseCandidate;

/** Events read per app (the newest). */
export const EVENTS_KEPT = 200;

/**
 * An app's release state: the ids made current, oldest first (the last one is current), the
 * candidate of a canary if one runs, the decisions made so far (the newest EVENTS_KEPT), and the
 * app's revision, which every change of it moves.
 */
export interface ReleaseState {
  history: string[];
  candidate?: Candidate;
  events: DeliveryEvent[];
  revision: number;
}

export function isDeliveryAction(value: string): value is DeliveryAction {
  return (DELIVERY_ACTIONS as readonly string[]).includes(value);
}

export function isCandidate(value: unknown): value is Candidate {
  const candidate = value as Candidate | null | undefined;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.id === 'string' &&
    typeof candidate.share === 'number' &&
    typeof candidate.minViews === 'number' &&
    (candidate.promoteAfter === null || typeof candidate.promoteAfter === 'number') &&
    typeof candidate.since === 'string'
  );
}
