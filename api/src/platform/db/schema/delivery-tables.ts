import type { ColumnType, Generated } from 'kysely';
import type { Count, Minute } from './column-types';

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

/** Delivery's tables: releases, their tokens and decisions, and the telemetry that judges them. */
export interface DeliveryTables {
  telemetry_minutes: TelemetryMinutesTable;
  telemetry_errors: TelemetryErrorsTable;
  telemetry_error_minutes: TelemetryErrorMinutesTable;
  visit_sessions: VisitSessionsTable;
  telemetry_clients: TelemetryClientsTable;
  release_revision: ReleaseRevisionTable;
  releases: ReleasesTable;
  release_apps: ReleaseAppsTable;
  release_events: ReleaseEventsTable;
  release_tokens: ReleaseTokensTable;
}
