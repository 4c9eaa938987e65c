import type { ArticleOwner, AttributionKey, RollupGrain } from '@agency/shared';
import type { ColumnType, Generated } from 'kysely';
import type { EditableTimestamp, JsonText, Minute, Timestamp } from './column-types';

export interface ServicesTable {
  id: Generated<number>;
  slug: string;
  title: string;
  description: string;
  icon_url: string;
  features: JsonText;
  price_from: number | null;
  sort_order: number;
  created_at: Timestamp;
  /** Set while the service is off the home page (migration 0015); ISO 8601 text. */
  unpublished_at: ColumnType<string | null, string | null | undefined, string | null>;
  version: ColumnType<number, number | undefined, number>;
  updated_at: ColumnType<string | null, string | null | undefined, string | null>;
  updated_by: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface BlogPostsTable {
  id: Generated<number>;
  slug: string;
  title: string;
  excerpt: string;
  category: string;
  image_url: string;
  author: string;
  content: string;
  created_at: EditableTimestamp;
  /** Set while the post is not published (its file was removed or made a draft); migration 0005. */
  unpublished_at: ColumnType<unknown, string | Date | null | undefined, string | Date | null>;
  updated_at: ColumnType<unknown, string | Date | undefined, string | Date>;
  /** What the content sync last wrote, hashed; null for posts written otherwise. */
  source_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** Who writes the post: the content folder's sync, or the staff console (migration 0014). */
  owner: ColumnType<ArticleOwner, ArticleOwner | undefined, ArticleOwner>;
  /** The Markdown the live post was rendered from; null until a sync fills it for an older post. */
  markdown: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Where a lead's visitor came from, one column per attribution key; NULL where it did not say (migration 0008). */
type AttributionColumns = { [Key in AttributionKey]: ColumnType<string | null, string | null | undefined, never> };

export interface JobApplicationsTable extends AttributionColumns {
  id: Generated<number>;
  name: string;
  email: string;
  phone: string;
  city: string;
  position: string;
  resume_text: string;
  user_agent: string | null;
  referrer: string | null;
  created_at: Timestamp;
  /** The client's key for this submission, and a hash of what was stored under it (migration 0006). */
  idempotency_key: ColumnType<string | null, string | null | undefined, never>;
  request_hash: ColumnType<string | null, string | null | undefined, never>;
}

export interface ContactMessagesTable extends AttributionColumns {
  id: Generated<number>;
  name: string;
  email: string;
  phone: string;
  company: string;
  service_type: string;
  message: string;
  user_agent: string | null;
  referrer: string | null;
  created_at: Timestamp;
  /** The client's key for this submission, and a hash of what was stored under it (migration 0006). */
  idempotency_key: ColumnType<string | null, string | null | undefined, never>;
  request_hash: ColumnType<string | null, string | null | undefined, never>;
}

/** One row, moved by triggers on every change of services or blog posts (migration 0002). */
export interface ContentRevisionTable {
  id: number;
  /** bigint on PostgreSQL (read as a string), integer on SQLite. */
  revision: ColumnType<unknown, number, never>;
}

/** One row the health check rewrites to prove the database takes writes (migration 0003). */
export interface HealthProbeTable {
  id: number;
  checked_at: ColumnType<unknown, string | Date, string | Date>;
}

/** One notification of one submission through one channel (migration 0004). */
export interface LeadOutboxTable {
  id: Generated<number>;
  submission_kind: 'contact' | 'applications';
  submission_id: number;
  channel: string;
  /** JSON text of what is delivered, frozen when the submission is stored. */
  payload: string;
  status: ColumnType<'pending' | 'delivered' | 'failed', 'pending' | 'delivered' | 'failed' | undefined>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: ColumnType<unknown, string | Date, string | Date>;
  /** A worker's lease on the row while it delivers; past or null when nobody holds it. */
  locked_until: ColumnType<unknown, string | Date | null | undefined, string | Date | null>;
  give_up_at: ColumnType<unknown, string | Date, string | Date>;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: ColumnType<unknown, string | Date, never>;
  delivered_at: ColumnType<unknown, string | Date | null | undefined, string | Date | null>;
  /** `lead.created`; `lead.erased` for the erasure of a person's leads (migration 0013); `lead.reply` the visitor's reply and `lead.overdue` an alert (0017); `report.weekly` an admin's weekly e-mail (0018). */
  event: ColumnType<OutboxEvent, OutboxEvent | undefined, never>;
  /** When the delivered or given-up row's copy of the lead lost its personal fields (migration 0013). */
  payload_removed_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export type OutboxEvent = 'lead.created' | 'lead.erased' | 'lead.reply' | 'lead.overdue' | 'report.weekly';

/** Images uploaded in the console, as served (migration 0014). */
export interface MediaFilesTable {
  name: string;
  bytes: Buffer;
  created_at: string;
  created_by: number | null;
}

/** The public site's tables: its content, the leads visitors send and their notifications, uploaded images, the liveness probe. */
/** A form token or proof of work accepted once (migration 0016), by `token:<nonce>` or `proof:<nonce>`. */
export interface SpamNonceUsesTable {
  nonce: string;
  used_at: string;
}

/** What admins tuned of the spam defence (migration 0016): one row, id 1, once changed. */
export interface SpamSettingsTable {
  id: number;
  threshold: number;
  /** A JSON array of phrases. */
  phrases: string;
  version: number;
  updated_at: string;
  updated_by: number | null;
}

/** An e-mail or phone staff vouched for (migration 0016), as a keyed hash. */
export interface SpamTrustedSendersTable {
  sender_key: string;
  trusted_at: string;
}

/** The salt of the Kyiv day (`YYYY-MM-DD`) visitors are hashed with; one row (migration 0018). */
export interface AnalyticsSaltsTable {
  day: string;
  salt: string;
}

/** A visitor of the salt's day, by hash, with the visit's first page and where it came from (migration 0018). */
export interface AnalyticsVisitorsTable {
  day: string;
  visitor: string;
  entry_path: string;
  source: string;
  campaign: string;
  device: string;
}

/** What a visitor of the day has been counted for (a page, a form's step) (migration 0018). */
export interface AnalyticsSeenTable {
  day: string;
  visitor: string;
  item: string;
}

/** A lead of the salt's day waiting for its visitor's device (migration 0018). */
export interface AnalyticsLeadVisitorsTable {
  kind: string;
  submission_id: number;
  day: string;
  visitor: string;
}

/** Totals per UTC hour, Kyiv day or Kyiv month (`grain`; `start` in minutes since the epoch) by source, campaign and device (migration 0018). */
interface RollupKey {
  grain: RollupGrain;
  start: Minute;
  source: string;
  campaign: string;
  device: string;
}
/** Counts are bigint: PostgreSQL returns them (and their sums) as strings. */
type RollupCount = ColumnType<unknown, number, unknown>;

export interface AnalyticsPageRollupsTable extends RollupKey {
  path: string;
  views: RollupCount;
  visitors: RollupCount;
  engaged_ms: RollupCount;
}

export interface AnalyticsVisitRollupsTable extends RollupKey {
  entry_path: string;
  visitors: RollupCount;
}

export interface AnalyticsFormRollupsTable extends RollupKey {
  form: string;
  step: string;
  path: string;
  visitors: RollupCount;
}

/** A week (its Monday, `YYYY-MM-DD`) whose report e-mail was queued (migration 0018). */
export interface AnalyticsWeeklyReportsTable {
  week: string;
  queued_at: string;
}

export interface SiteTables {
  services: ServicesTable;
  blog_posts: BlogPostsTable;
  job_applications: JobApplicationsTable;
  contact_messages: ContactMessagesTable;
  content_revision: ContentRevisionTable;
  health_probe: HealthProbeTable;
  lead_outbox: LeadOutboxTable;
  media_files: MediaFilesTable;
  spam_nonce_uses: SpamNonceUsesTable;
  spam_settings: SpamSettingsTable;
  spam_trusted_senders: SpamTrustedSendersTable;
  analytics_salts: AnalyticsSaltsTable;
  analytics_visitors: AnalyticsVisitorsTable;
  analytics_seen: AnalyticsSeenTable;
  analytics_lead_visitors: AnalyticsLeadVisitorsTable;
  analytics_page_rollups: AnalyticsPageRollupsTable;
  analytics_visit_rollups: AnalyticsVisitRollupsTable;
  analytics_form_rollups: AnalyticsFormRollupsTable;
  analytics_weekly_reports: AnalyticsWeeklyReportsTable;
}
