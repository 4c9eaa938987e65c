import { Type, type Static } from '@sinclair/typebox';
import { CLIENT_EVIDENCE, DELIVERY_ACTIONS, VERDICT_ACTIONS, type ClientEvidence, type DeliveryAction, type VerdictAction } from './release-constants';
import { NullableNumber, StringEnum } from './schema-builders';

/**
 * Release health as `npm run release -- <app> --status` (and `GET /api/releases/<app>/status`)
 * reports it, and the console's «Релізи» shows it: what visitors' browsers and the server saw of
 * each kept release, a canary's rules and what its health says now, and every decision about the
 * app's releases. Field names are the report's own (snake_case), as teams' scripts read them.
 */

const IsoTime = Type.String();
const Count = Type.Integer({ minimum: 0 });

/** One decision, by a person (the release command, a team's token, the console) or by the site (release health). */
export const DeliveryEventSchema = Type.Object({
  /** ISO time. */
  at: IsoTime,
  release: Type.String(),
  action: StringEnum<DeliveryAction>(DELIVERY_ACTIONS),
  reason: Type.String(),
  /** Who: a token's name (`token:ci-blog`), `cli:<user>@<host>`, `staff:<e-mail>`, `site` for release health, `import`. */
  actor: Type.String(),
});
export type DeliveryEvent = Static<typeof DeliveryEventSchema>;

/** One of a release's most frequent errors. */
export const TopErrorSchema = Type.Object({
  message: Type.String(),
  kind: Type.String(),
  /** The route pattern it was first seen on. */
  page: Type.String(),
  count: Count,
  /** Where in the original source it was thrown (`mfe-blog/src/…/BlogTeaser.tsx:14:11`), when the release's source maps tell. */
  source: Type.Union([Type.String(), Type.Null()]),
});
export type TopError = Static<typeof TopErrorSchema>;

const ClientCounts = Type.Object(
  Object.fromEntries(CLIENT_EVIDENCE.map((evidence) => [evidence, Count])) as Record<ClientEvidence, typeof Count>,
);

/** What visitors' browsers saw of one release over the window asked for. */
export const ReleaseHealthSchema = Type.Object({
  id: Type.String(),
  current: Type.Boolean(),
  /** Page views browsers reported (the same visitors, and sample, as the errors). */
  page_views: Count,
  /** Pages the server sent browsers' navigations with this release on them: its own count, which no browser can add to. */
  served_page_views: Count,
  /**
   * The pages sent while a canary judged the release, a few per client at most: what its
   * `--min-views` and `--promote-after` count (0 when no canary judged it).
   */
  judged_page_views: Count,
  /**
   * Distinct clients (by address) of each kind of evidence, counted while a canary judges the
   * release (its candidate and the current release; 0 otherwise): sent its pages, reporting its
   * errors, its load failures, its LCP or INP.
   */
  clients: ClientCounts,
  /** Errors in the page (uncaught, unhandled rejections, a slot's fallback), not load failures. */
  errors: Count,
  /** Errors per page view; null without page views. */
  error_rate: NullableNumber(),
  load_failures: Count,
  load_retries: Count,
  /** Server renders of the page that failed in this release (the server's count, not a browser's). */
  render_failures: Count,
  /** How many values each p75 of the vitals below is taken from. */
  vitals_samples: Type.Object({ lcp: Count, inp: Count }),
  vitals: Type.Object({
    lcp_p75_ms: NullableNumber(),
    inp_p75_ms: NullableNumber(),
    cls_p75: NullableNumber(),
    fcp_p75_ms: NullableNumber(),
    ttfb_p75_ms: NullableNumber(),
  }),
  top_errors: Type.Array(TopErrorSchema),
});
export type ReleaseHealth = Static<typeof ReleaseHealthSchema>;

/** What release health says about a candidate now, and why (in English, as the release events record it). */
export const VerdictSchema = Type.Object({ action: StringEnum<VerdictAction>(VERDICT_ACTIONS), reason: Type.String() });
export type Verdict = Static<typeof VerdictSchema>;

/** A release's health, and whether it is a canary's candidate (with the share of visitors it gets). */
export const ReleaseStatusEntrySchema = Type.Object({
  ...ReleaseHealthSchema.properties,
  candidate: Type.Boolean(),
  share: Type.Optional(Type.Number()),
});
export type ReleaseStatusEntry = Static<typeof ReleaseStatusEntrySchema>;

/** A running canary's rules, and what its health says now (over the window since it started). */
export const CanaryStatusSchema = Type.Object({
  release: Type.String(),
  share: Type.Number(),
  min_views: Count,
  promote_after: Type.Union([Count, Type.Null()]),
  since: IsoTime,
  verdict: VerdictSchema,
});
export type CanaryStatus = Static<typeof CanaryStatusSchema>;

/** `--status`: the health of the app's current and kept releases, newest first. */
export const ReleaseStatusSchema = Type.Object({
  app: Type.String(),
  /** The start of the window, ISO 8601 (whole minutes: reports are counted per minute). */
  since: IsoTime,
  releases: Type.Array(ReleaseStatusEntrySchema),
  canary: Type.Union([CanaryStatusSchema, Type.Null()]),
  /** Every decision about the app's releases, oldest first. */
  events: Type.Array(DeliveryEventSchema),
});
export type ReleaseStatus = Static<typeof ReleaseStatusSchema>;
