import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Gauge } from 'prom-client';
import { createOpsWebhook } from '../alerts/ops-webhook';
import type { OpsWebhookConfig } from '../config';
import type { BackupConfig } from '../config/backup';
import { startSiteSchedule } from '../scheduling/site-schedule';
import { createBackupAlerts } from './backup-alerts';
import { BackupService } from './backup-service';
import { pruneErasureJournal } from './erasure-journal';

declare module 'fastify' {
  interface FastifyInstance {
    /** The database's backups; undefined when BACKUP_STORE=off. */
    backups: BackupService | undefined;
  }
}

export interface BackupPluginOptions {
  backup: BackupConfig;
  databaseUrl: string;
  siteUrl: string;
  opsWebhook?: OpsWebhookConfig;
  /** The clock (tests move it). */
  now?: () => number;
}

/**
 * Backups as the site's own work: on SQLite one process (the lease's holder) snapshots every
 * BACKUP_INTERVAL, runs a restore drill once a BACKUP_VERIFY_INTERVAL and applies retention;
 * every process snapshots once more as it shuts down. On PostgreSQL a sidecar takes base backups
 * and archives WAL (`npm run backup -- agent`); the site watches the same store. Either way the
 * status is in /metrics and the console, and a problem goes to the ops webhook.
 */
async function backupPlugin(app: FastifyInstance, options: BackupPluginOptions): Promise<void> {
  const now = options.now ?? Date.now;
  const service = BackupService.open({ config: options.backup, databaseUrl: options.databaseUrl, log: app.log, now });
  app.decorate('backups', service);
  if (!service) return;
  // A key that cannot be read or made stops the start, as a malformed setting does, not the first backup 5 minutes later.
  if (service.sqliteFile) await service.keys();

  const status = () => service.status();
  const seconds = (iso: string | undefined) => (iso === undefined ? -1 : Math.max(0, (now() - Date.parse(iso)) / 1000));
  const registers = [app.metrics.registry];
  new Gauge({
    name: 'agency_backup_newest_age_seconds',
    help: 'Age of the newest complete backup (-1: none yet)',
    registers,
    async collect() {
      this.set(seconds((await status()).newest?.takenAt));
    },
  });
  new Gauge({
    name: 'agency_backup_verified_age_seconds',
    help: 'Age of the newest backup a restore drill proved (-1: none yet)',
    registers,
    async collect() {
      this.set(seconds((await status()).newestVerified?.takenAt));
    },
  });
  new Gauge({
    name: 'agency_backup_failing',
    help: "1 while this process's last backup or restore drill failed, by what",
    labelNames: ['what'] as const,
    registers,
    async collect() {
      const { failure } = await status();
      this.set({ what: 'backup' }, failure?.what === 'backup' ? 1 : 0);
      this.set({ what: 'verify' }, failure?.what === 'verify' ? 1 : 0);
    },
  });

  const webhook = options.opsWebhook && createOpsWebhook(options.opsWebhook, app.log);
  const alerts = createBackupAlerts(
    options.siteUrl,
    (message, key) => (webhook ? webhook(message, key) : Promise.resolve(app.log.error({ alert: message.alert }, `backups: ${message.text}`))),
    now(),
  );
  const snapshots = service.sqliteFile !== undefined;
  const schedule = startSiteSchedule(app.db, {
    lease: { name: 'backups', ttlMs: options.backup.intervalMs + 60_000 },
    intervalMs: options.backup.intervalMs,
    now,
    run: async () => {
      try {
        // On PostgreSQL the agent takes and prunes backups; the journal is the site's own (the agent's user may not delete its files).
        if (snapshots) await service.scheduledRun();
        else await pruneErasureJournal(service.catalog, now());
      } finally {
        await alerts(await service.status({ fresh: true }), now());
      }
    },
    onError: (error) => app.log.error({ err: error }, 'backups: a scheduled backup failed; tried again at the next interval'),
  });

  app.addHook('onClose', async () => {
    await schedule.stop();
    if (!snapshots) return;
    // The last moment this process saw: a restore after a planned stop loses nothing.
    await service.backupNow('shutdown').catch((error: unknown) => app.log.error({ err: error }, 'backups: the shutdown backup failed'));
  });
}

export default fp(backupPlugin, { name: 'backups', dependencies: ['database', 'metrics'] });
