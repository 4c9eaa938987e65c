import type { ArticleOwner, ArticleRevisionKind, AttributionKey, LeadKind, LeadStatus, StaffRole } from '@agency/shared';
import type { ColumnType, Generated, Kysely } from 'kysely';

/**
 * Table types. Column representations that differ between SQLite and PostgreSQL
 * (timestamps, JSON) are typed `unknown` on read and decoded by ./dialect.ts.
 */
type Timestamp = ColumnType<unknown, string | Date | undefined, never>;
type JsonText = ColumnType<unknown, string, string>;
/** A timestamp that may be rewritten (a post's date, when its author changes it). */
type EditableTimestamp = ColumnType<unknown, string | Date | undefined, string | Date>;

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

/** The fields of an article an editor writes, as a working copy and each revision keep them. */
interface ArticleFieldColumns {
  title: string;
  category: string;
  excerpt: string;
  author: string;
  cover_url: string;
  markdown: string;
}

/** A console article's working copy (migration 0014); ISO 8601 text timestamps. */
export interface ArticleDraftsTable extends ArticleFieldColumns {
  post_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  updated_by: number | null;
  publish_at: string | null;
  published_version: number | null;
  first_published_at: string | null;
}

export interface ArticleRevisionsTable extends ArticleFieldColumns {
  id: Generated<number>;
  post_id: number;
  version: number;
  at: string;
  actor_id: number | null;
  actor: string;
  kind: ArticleRevisionKind;
  restored_from: number | null;
  slug: string;
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
  /** `lead.created`, or `lead.erased` for the erasure of a person's leads (migration 0013). */
  event: ColumnType<OutboxEvent, OutboxEvent | undefined, never>;
  /** When the delivered or given-up row's copy of the lead lost its personal fields (migration 0013). */
  payload_removed_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export type OutboxEvent = 'lead.created' | 'lead.erased';

/** Whole minutes since the Unix epoch. */
type Minute = number;
/** A count: bigint sums on PostgreSQL read back as strings, hence decoded with Dialect.readCount. */
type Count = ColumnType<number, number, unknown>;

/** A per-minute count of what browsers reported for one app release and page (migration 0007). */
export interface TelemetryMinutesTable {
  minute: Minute;
  app: string;
  release: string;
  /** The route pattern (`/blog/:postId`). */
  page: string;
  /** `page_view`, an error kind or a vital's name. */
  kind: string;
  /** A vital's histogram bucket (see delivery/health/histogram.ts); -1 for plain counts. */
  bucket: number;
  count: Count;
}

/** One sample of a distinct browser error of an app release (migration 0007). */
export interface TelemetryErrorsTable {
  app: string;
  release: string;
  fingerprint: string;
  kind: string;
  page: string;
  message: string;
  stack: string;
  first_minute: Minute;
  last_minute: Minute;
}

/** How often an error of telemetry_errors happened per minute (migration 0007). */
export interface TelemetryErrorMinutesTable {
  app: string;
  release: string;
  fingerprint: string;
  minute: Minute;
  count: Count;
}

/** A browser session the page-view beacon reported, by its random id, and where it came from (migration 0008). */
export interface VisitSessionsTable {
  id: string;
  first_minute: Minute;
  source: string;
  medium: string;
  campaign: string;
}

/** A distinct client that gave evidence about an app release while a canary judged it (migration 0010). */
export interface TelemetryClientsTable {
  app: string;
  release: string;
  /** `served`, `error`, `load_failure` or `vitals` (delivery/health/telemetry-kinds.ts). */
  kind: string;
  /** A keyed hash of the client's address (delivery/health/client-identity.ts). */
  client: string;
  /** How often: pages sent to it, or reports of this kind it sent. */
  count: Count;
  last_minute: Minute;
}

/** A random secret every API process of the site shares (migration 0010). */
export interface SiteSecretsTable {
  name: string;
  value: string;
}

/** Which API process does a kind of site-wide work for now (migration 0009). */
export interface ReleaseLeasesTable {
  name: string;
  holder: string;
  /** Milliseconds since the Unix epoch; bigint on PostgreSQL (read back as a string). */
  expires_at: number | string;
}

/** The release state's one counter, moved by every change of it (migration 0011). */
export interface ReleaseRevisionTable {
  id: number;
  /** bigint on PostgreSQL (read back as a string). */
  revision: ColumnType<number | string, number, number>;
  /** ISO time RELEASES_DIR was imported; null until then. */
  imported_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A release whose files are (being) stored in the artifact store (migration 0011). */
export interface ReleasesTable {
  app: string;
  id: string;
  status: 'uploading' | 'stored';
  version: string;
  revision: string;
  /** ISO times. */
  built_at: string;
  published_at: string;
  /** SHA-256 of the release's file names and contents: the same build has the same digest. */
  digest: string;
  file_count: number;
  /** bigint on PostgreSQL (read back as a string). */
  total_bytes: ColumnType<number | string, number, number>;
  /** Who published it: a token's name, `cli:<user>@<host>`, or `import`. */
  published_by: string;
  /** ISO time it stopped being current; null while current or never current. */
  current_until: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Per app: the ids made current (JSON array, oldest first) and the candidate (JSON) (migration 0011). */
export interface ReleaseAppsTable {
  app: string;
  history: string;
  candidate: string | null;
  /** bigint on PostgreSQL (read back as a string). */
  revision: ColumnType<number | string, number, number>;
}

/** One decision about a release (migration 0011). */
export interface ReleaseEventsTable {
  seq: Generated<number>;
  app: string;
  release: string;
  action: string;
  reason: string;
  actor: string;
  at: string;
  revision: ColumnType<number | string, number, never>;
}

/** A team's release token, as a hash (migration 0011). */
export interface ReleaseTokensTable {
  name: string;
  token_hash: string;
  /** JSON array of app names. */
  apps: string;
  created_at: string;
  revoked_at: ColumnType<string | null, string | null | undefined, string | null>;
  last_used_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** The staff console (migration 0012): every timestamp ISO 8601 text in UTC. */
export interface StaffMembersTable {
  id: Generated<number>;
  email: string;
  role: StaffRole;
  created_at: string;
  removed_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface StaffInvitationsTable {
  token_hash: string;
  email: string;
  role: StaffRole;
  invited_by: number | null;
  created_at: string;
  expires_at: string;
  used_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface StaffPasskeysTable {
  id: string;
  member_id: number;
  public_key: string;
  counter: ColumnType<number | string, number, number>;
  transports: string;
  created_at: string;
  last_used_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface StaffTotpTable {
  member_id: number;
  secret: string;
  last_step: ColumnType<number | string, number, number>;
  created_at: string;
}

export interface StaffRecoveryCodesTable {
  code_hash: string;
  member_id: number;
  created_at: string;
  used_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface StaffCodeFailuresTable {
  email: string;
  at: string;
}

export interface StaffCodeLockoutsTable {
  email: string;
  until: string;
}

export interface StaffSessionsTable {
  id_hash: string;
  member_id: number;
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  user_agent: string;
  address: string;
}

export interface StaffChallengesTable {
  id: string;
  purpose: string;
  value: string;
  expires_at: string;
}

export interface StaffAuditTable {
  seq: Generated<number>;
  at: string;
  actor_id: number | null;
  actor: string;
  action: string;
  target: string;
  address: string;
  detail: string;
}

export interface LeadsTable {
  id: Generated<number>;
  kind: LeadKind;
  submission_id: number;
  received_at: string;
  source: string;
  status: LeadStatus;
  assignee_id: number | null;
  version: number;
  updated_at: string;
  /** The arrival or the latest work on the lead; retention counts from it (migration 0013). */
  last_activity_at: string;
}

export interface LeadNotesTable {
  id: Generated<number>;
  lead_id: number;
  author_id: number;
  text: string;
  created_at: string;
}

export interface LeadHistoryTable {
  id: Generated<number>;
  lead_id: number;
  actor_id: number | null;
  at: string;
  change: string;
  old_value: string | null;
  new_value: string | null;
}

/** Images uploaded in the console, as served (migration 0014). */
export interface MediaFilesTable {
  name: string;
  bytes: Buffer;
  created_at: string;
  created_by: number | null;
}

export interface DatabaseSchema {
  services: ServicesTable;
  blog_posts: BlogPostsTable;
  job_applications: JobApplicationsTable;
  contact_messages: ContactMessagesTable;
  content_revision: ContentRevisionTable;
  health_probe: HealthProbeTable;
  lead_outbox: LeadOutboxTable;
  telemetry_minutes: TelemetryMinutesTable;
  telemetry_errors: TelemetryErrorsTable;
  telemetry_error_minutes: TelemetryErrorMinutesTable;
  visit_sessions: VisitSessionsTable;
  telemetry_clients: TelemetryClientsTable;
  site_secrets: SiteSecretsTable;
  release_leases: ReleaseLeasesTable;
  release_revision: ReleaseRevisionTable;
  releases: ReleasesTable;
  release_apps: ReleaseAppsTable;
  release_events: ReleaseEventsTable;
  release_tokens: ReleaseTokensTable;
  staff_members: StaffMembersTable;
  staff_invitations: StaffInvitationsTable;
  staff_passkeys: StaffPasskeysTable;
  staff_totp: StaffTotpTable;
  staff_recovery_codes: StaffRecoveryCodesTable;
  staff_code_failures: StaffCodeFailuresTable;
  staff_code_lockouts: StaffCodeLockoutsTable;
  staff_sessions: StaffSessionsTable;
  staff_challenges: StaffChallengesTable;
  staff_audit: StaffAuditTable;
  leads: LeadsTable;
  lead_notes: LeadNotesTable;
  lead_history: LeadHistoryTable;
  article_drafts: ArticleDraftsTable;
  article_revisions: ArticleRevisionsTable;
  media_files: MediaFilesTable;
}

export type AppKysely = Kysely<DatabaseSchema>;
