import path from 'node:path';
import { loadBackupConfig, type BackupConfig } from './backup';
import { loadClockConfig, type ClockConfig } from './clock';
import { loadDatabaseConfig, type DatabaseConfig } from './database';
import { loadDeliveryConfig, type DeliveryConfig } from './delivery';
import type { Env } from './env';
import { loadLeadsConfig, type LeadsConfig } from './leads';
import { loadPagesConfig, type PagesConfig } from './pages';
import { loadServerConfig, type ServerConfig } from './server';
import { loadSiteConfig, type SiteConfig } from './site';
import { loadStaffConfig, type StaffConfig } from './staff';
import { loadTelemetryConfig, type TelemetryConfig } from './telemetry';

export { REPO_ROOT, type Env } from './env';
export { loadBackupConfig, type BackupConfig } from './backup';
export { ensureParentDir, loadDatabaseConfig, type DatabaseConfig } from './database';
export { loadDeliveryConfig, type DeliveryConfig, type OpsWebhookConfig } from './delivery';
export { loadS3Config, type S3Config } from './object-store';
export { type LeadsConfig } from './leads';
export { DEFAULT_PAGE_CACHE_MB, type PagesConfig } from './pages';
export { type LogFormat, type ServerConfig, type TrustProxy } from './server';
export { loadContentConfig, resolveSiteUrl, type SiteConfig } from './site';
export { type StaffConfig } from './staff';
export { loadTelemetryConfig, TELEMETRY_BUDGET, type TelemetryBudget, type TelemetryConfig, type TelemetryTable } from './telemetry';

/** Folder of the images the seed content points to (served under /media/). */
export const PUBLIC_DIR = path.resolve(__dirname, '../../../public');

/** Every setting of the server, one section per file of this folder. */
export interface AppConfig extends ServerConfig, DatabaseConfig, SiteConfig, PagesConfig, DeliveryConfig, ClockConfig {
  /** Where each lead is sent as it arrives (LEADS_WEBHOOK_URL, TELEGRAM_*, SMTP_URL…); none by default. */
  leads: LeadsConfig;
  telemetry: TelemetryConfig;
  staff: StaffConfig;
  backup: BackupConfig;
}

/**
 * The server's settings from the environment, read once at start: any malformed variable stops
 * the start with a message naming it.
 */
export function loadConfig(env: Env = process.env): AppConfig {
  const server = loadServerConfig(env);
  const database = loadDatabaseConfig(env);
  return {
    ...server,
    ...database,
    ...loadSiteConfig(env, server.port),
    ...loadPagesConfig(env),
    ...loadDeliveryConfig(env),
    ...loadClockConfig(env),
    leads: loadLeadsConfig(env),
    telemetry: loadTelemetryConfig(env),
    staff: loadStaffConfig(env),
    backup: loadBackupConfig(env, database.databaseUrl),
  };
}
