/** What happened to a release on its way to visitors, as `--status` lists it. */
export const DELIVERY_ACTIONS = ['published', 'staged', 'canary', 'promoted', 'rolled_back', 'aborted', 'pruned'] as const;
export type DeliveryAction = (typeof DELIVERY_ACTIONS)[number];

/** One decision, by a person (the release command, a team's token) or by the site (release health). */
export interface DeliveryEvent {
  /** ISO time. */
  at: string;
  release: string;
  action: DeliveryAction;
  reason: string;
  /** Who: a token's name (`token:ci-blog`), `cli:<user>@<host>`, `site` for release health, `import`. */
  actor: string;
}

/** The release a share of visitors gets instead of the current one, and the rules it is judged by. */
export interface Candidate {
  id: string;
  /** Percent of visitors (their buckets), above 0 and up to 100. */
  share: number;
  /** Candidate page views before its health is compared with the current release's. */
  minViews: number;
  /** Healthy candidate page views after which it is made current by itself; null: a person promotes. */
  promoteAfter: number | null;
  /** ISO time it became the candidate: its health and the current release's are compared from then on. */
  since: string;
}

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
