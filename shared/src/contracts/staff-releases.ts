import { Type, type Static } from '@sinclair/typebox';
import { ReleaseExpectationSchema, ReleaseIdSchema } from './release-commands';
import { ReleaseHealthSchema, ReleaseStatusSchema } from './release-health';

/**
 * «Релізи» of the staff console (`/api/staff/releases…`): every app's releases, one app's health
 * over time, and the release commands a release manager runs from there. Every change names the
 * state it was decided on (`expect`, at least the app's revision the screen shows), so a click on
 * a screen the state has since left is refused with what changed, as the release API refuses it.
 */

const IsoTime = Type.String();
const Count = Type.Integer({ minimum: 0 });
const NullableCount = Type.Union([Count, Type.Null()]);
const NullableValue = Type.Union([Type.Number(), Type.Null()]);

/** A kept release as the console lists it. */
export const StaffReleaseSchema = Type.Object({
  id: Type.String(),
  /** The app's package.json version. */
  version: Type.String(),
  /** Git short revision, with `-dirty` when the working tree had changes. */
  revision: Type.String(),
  builtAt: IsoTime,
  publishedAt: IsoTime,
  /** Who published it (`token:ci-blog`, `cli:<user>@<host>`, `staff:<e-mail>`). */
  publishedBy: Type.String(),
});
export type StaffRelease = Static<typeof StaffReleaseSchema>;

/** The release a share of visitors gets instead of the current one, and the rules it is judged by. */
export const ReleaseCandidateSchema = Type.Object({
  id: Type.String(),
  /** Percent of visitors (their buckets), above 0 and up to 100. */
  share: Type.Number(),
  /** Candidate page views before its health is compared with the current release's. */
  minViews: Type.Integer({ minimum: 1 }),
  /** Healthy candidate page views after which it is made current by itself; null: a person promotes. */
  promoteAfter: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
  /** ISO time it became the candidate: its health and the current release's are compared from then on. */
  since: IsoTime,
});
export type ReleaseCandidate = Static<typeof ReleaseCandidateSchema>;

/** One app's releases now. */
export const StaffReleaseAppSchema = Type.Object({
  app: Type.String(),
  /** A remote (not the shell): one browser may load another build of it (an override). */
  remote: Type.Boolean(),
  /** The app's revision: every change of its releases moves it; changes send it back as `expect`. */
  revision: Count,
  /** Null: the app is served from its build folder (dist). */
  current: Type.Union([StaffReleaseSchema, Type.Null()]),
  /** The release a rollback returns to. */
  previous: Type.Union([StaffReleaseSchema, Type.Null()]),
  candidate: Type.Union([Type.Object({ ...ReleaseCandidateSchema.properties, release: StaffReleaseSchema }), Type.Null()]),
  /** Published for preview links only, never current yet; newest first. */
  staged: Type.Array(StaffReleaseSchema),
  /** Every other kept release (a promote or a canary can name any), newest first. */
  kept: Type.Array(StaffReleaseSchema),
});
export type StaffReleaseApp = Static<typeof StaffReleaseAppSchema>;

/** GET /api/staff/releases: every app, and the apps the signed-in member may act on. */
export const StaffReleasesSchema = Type.Object({
  apps: Type.Array(StaffReleaseAppSchema),
  mayAct: Type.Array(Type.String()),
});
export type StaffReleases = Static<typeof StaffReleasesSchema>;

/** `?since=`: a duration back from now (`30m`, `6h`, `7d`) or a past moment, as `--status --since` takes it. */
export const StaffReleaseHealthQuerySchema = Type.Object({ since: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })) }, { additionalProperties: false });
export type StaffReleaseHealthQuery = Static<typeof StaffReleaseHealthQuerySchema>;

/** One release's figures per time bucket, aligned with ReleaseSeries.buckets. */
export const ReleaseSeriesLineSchema = Type.Object({
  id: Type.String(),
  pageViews: Type.Array(Count),
  errors: Type.Array(Count),
  loadFailures: Type.Array(Count),
  /** p75 per bucket; null where no value was reported. */
  lcpP75Ms: Type.Array(NullableCount),
  inpP75Ms: Type.Array(NullableCount),
  clsP75: Type.Array(NullableValue),
});
export type ReleaseSeriesLine = Static<typeof ReleaseSeriesLineSchema>;

/** The releases' health over time: every bucket of the window, and a line per release seen in it (the current and the candidate always). */
export const ReleaseSeriesSchema = Type.Object({
  bucketMinutes: Type.Integer({ minimum: 1 }),
  /** Each bucket's start, oldest first. */
  buckets: Type.Array(IsoTime),
  releases: Type.Array(ReleaseSeriesLineSchema),
});
export type ReleaseSeries = Static<typeof ReleaseSeriesSchema>;

/** GET /api/staff/releases/:app: the app's releases and their health, as `--status` gives it and over time. */
export const StaffReleaseDetailSchema = Type.Object({
  state: StaffReleaseAppSchema,
  /** Whether the signed-in member may act on this app. */
  mayAct: Type.Boolean(),
  status: ReleaseStatusSchema,
  series: ReleaseSeriesSchema,
  /** While a canary runs: the candidate's health and the current release's since it started, which its verdict is taken from. */
  evidence: Type.Union([Type.Object({ candidate: ReleaseHealthSchema, current: ReleaseHealthSchema }), Type.Null()]),
});
export type StaffReleaseDetail = Static<typeof StaffReleaseDetailSchema>;

const Expect = { expect: ReleaseExpectationSchema };

/** POST …/stage: a kept release, not current, published for preview links. */
export const StaffStageBodySchema = Type.Object({ release: ReleaseIdSchema, ...Expect }, { additionalProperties: false });
export type StaffStageBody = Static<typeof StaffStageBodySchema>;

/**
 * POST …/canary: a kept release becomes the candidate a share of visitors gets, or the running
 * candidate's share (and rules) change. Rules not sent are the running candidate's, else the
 * release command's defaults (judged after 100 page views, promoted by hand).
 */
export const StaffCanaryBodySchema = Type.Object(
  {
    release: ReleaseIdSchema,
    share: Type.Number({ exclusiveMinimum: 0, maximum: 100 }),
    minViews: Type.Optional(Type.Integer({ minimum: 1 })),
    promoteAfter: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
    ...Expect,
  },
  { additionalProperties: false },
);
export type StaffCanaryBody = Static<typeof StaffCanaryBodySchema>;

/** POST …/promote: a kept release becomes current; without `release`, the running candidate. */
export const StaffPromoteBodySchema = Type.Object({ release: Type.Optional(ReleaseIdSchema), ...Expect }, { additionalProperties: false });
export type StaffPromoteBody = Static<typeof StaffPromoteBodySchema>;

/** POST …/rollback and …/abort. */
export const StaffReleaseExpectBodySchema = Type.Object(Expect, { additionalProperties: false });
export type StaffReleaseExpectBody = Static<typeof StaffReleaseExpectBodySchema>;

/** What a change answers: the app's state after it (the console shows it at once), and a staged release's preview link. */
export const StaffReleaseChangedSchema = Type.Object({
  state: StaffReleaseAppSchema,
  /** What the command did, as the release command says it (English, as in the release events). */
  done: Type.String(),
  previewUrl: Type.Optional(Type.String()),
});
export type StaffReleaseChanged = Static<typeof StaffReleaseChangedSchema>;
