import type { Kysely } from 'kysely';
import type { DeliveryTables } from './delivery-tables';
import type { PlatformTables } from './platform-tables';
import type { SiteTables } from './site-tables';
import type { StaffTables } from './staff-tables';

/**
 * Every table of the one database, declared per product (one file each); the migrations in
 * ../migrations create them. Column representations that differ between SQLite and PostgreSQL are
 * typed `unknown` on read and decoded by ../dialect.ts.
 */
export interface DatabaseSchema extends PlatformTables, SiteTables, DeliveryTables, StaffTables {}

export type AppKysely = Kysely<DatabaseSchema>;

export type { ReleaseLeasesTable, SiteSecretsTable } from './platform-tables';
export type { BlogPostsTable, ContactMessagesTable, ContentRevisionTable, HealthProbeTable, JobApplicationsTable, LeadOutboxTable, MediaFilesTable, OutboxEvent, ServicesTable } from './site-tables';
export type { ReleaseAppsTable, ReleaseEventsTable, ReleaseRevisionTable, ReleasesTable, ReleaseTokensTable, TelemetryClientsTable, TelemetryErrorMinutesTable, TelemetryErrorsTable, TelemetryMinutesTable, VisitSessionsTable } from './delivery-tables';
export type { ArticleDraftsTable, ArticleRevisionsTable, LeadHistoryTable, LeadNotesTable, LeadsTable, StaffAuditTable, StaffChallengesTable, StaffCodeFailuresTable, StaffCodeLockoutsTable, StaffInvitationsTable, StaffMembersTable, StaffPasskeysTable, StaffRecoveryCodesTable, StaffSessionsTable, StaffTotpTable } from './staff-tables';
