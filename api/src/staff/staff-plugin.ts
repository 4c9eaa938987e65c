import cookie from '@fastify/cookie';
import { BRAND } from '@agency/shared';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../platform/config';
import { accountRoutes } from './accounts/account-routes';
import { articleRoutes } from './articles/article-routes';
import { startArticleSchedule } from './articles/article-schedule';
import { serviceRoutes } from './services/service-routes';
import { invitationRoutes } from './accounts/invitation-routes';
import { teamRoutes } from './accounts/team-routes';
import { auditRoutes } from './audit/audit-routes';
import { backupStatusRoutes } from './backups/backup-status-routes';
import { dataRequestRoutes } from './data-requests/data-request-routes';
import { subjectHashKey } from './data-requests/data-subject';
import { journalOf } from './data-requests/erasure-journal-writer';
import { inboxRoutes } from './inbox/inbox-routes';
import { spamSettingsRoutes } from './spam/spam-settings-routes';
import { followUpSettingsRoutes } from './follow-up/follow-up-settings-routes';
import { leadRoutingRoutes } from './follow-up/lead-routing-routes';
import { startOverdueCheck } from './follow-up/overdue-check';
import { overviewRoutes } from './overview/overview-routes';
import { releaseRoutes } from './releases/release-routes';
import { overrideRoutes } from './releases/override-routes';
import { startWeeklyReport } from './overview/weekly-report';
import { channelNames } from '../site/leads';
import { staffGuard } from './sessions/staff-guard';
import { signInRoutes } from './sign-in/sign-in-routes';
import { staffOriginOf } from './common/staff-origin';

export interface StaffPluginOptions {
  config: Pick<AppConfig, 'siteUrl' | 'staff' | 'leads' | 'mediaDir'>;
}

/**
 * The staff console's API (`/api/staff/*`): the agency's people sign in without passwords
 * (passkeys, an authenticator app, recovery codes), work the lead inbox, and admins run the team,
 * read the audit log, answer people's requests about their data, watch the database's backups and
 * set how leads are answered and assigned (leads waiting past the target are alerted about);
 * editors write, schedule and publish articles (scheduled ones go live on their own) and the home page's services;
 * release managers (and admins, read-only) see every app's releases and their health in «Релізи», and
 * release managers change their apps' releases there (through `app.delivery.releaseDesk`) and point a
 * remote of the live site at another build for their own browser (`app.delivery.remoteOverrides`). Every route passes the staff guard (session, Origin and CSRF token,
 * role) and answers `Cache-Control: no-store`.
 */
export async function staffPlugin(app: FastifyInstance, { config }: StaffPluginOptions): Promise<void> {
  const { db } = app;
  const origin = staffOriginOf(config.siteUrl, BRAND.fullName);
  const rateLimitPerMinute = config.staff.signInRateLimitPerMinute;
  if (!app.hasRequestDecorator('cookies')) await app.register(cookie);
  // onRequest: the session and CSRF checks come before the body is even read.
  app.addHook('onRequest', staffGuard(db, origin));
  await app.register(signInRoutes, { db, origin, rateLimitPerMinute });
  await app.register(invitationRoutes, { db, origin, rateLimitPerMinute });
  await app.register(accountRoutes, { db, origin });
  await app.register(teamRoutes, { db, siteUrl: config.siteUrl });
  await app.register(auditRoutes, { db });
  await app.register(inboxRoutes, { db, channels: channelNames(config.leads), followUp: app.leadFollowUp });
  await app.register(spamSettingsRoutes, { db, settings: app.spamDefence.settings });
  await app.register(followUpSettingsRoutes, { db, settings: app.leadFollowUp.settings });
  await app.register(leadRoutingRoutes, { db, routing: app.leadFollowUp.routing });
  await app.register(overviewRoutes, { db, clock: app.clock });
  await subjectHashKey(db);
  await app.register(dataRequestRoutes, { db, webhook: config.leads.webhook !== undefined, journal: journalOf(app.backups) });
  await app.register(backupStatusRoutes, { backups: app.backups });
  await app.register(articleRoutes, { db, mediaDir: config.mediaDir });
  await app.register(serviceRoutes, { db, mediaDir: config.mediaDir });
  await app.register(releaseRoutes, { db, desk: app.delivery.releaseDesk });
  await app.register(overrideRoutes, { db, cookie: app.delivery.remoteOverrides });
  const schedule = startArticleSchedule(db, app.log);
  app.addHook('onClose', () => schedule.stop());
  const overdue = startOverdueCheck(db, app.log, app.leadFollowUp, {
    intervalMs: config.staff.overdueCheckSeconds * 1000,
    telegram: config.leads.telegram !== undefined,
    siteUrl: config.siteUrl,
    clock: app.clock,
  });
  app.addHook('onClose', () => overdue.stop());
  // The admins' weekly e-mail: only with e-mail configured (SMTP_URL); see ./overview/weekly-report.ts.
  if (config.leads.email) {
    const weekly = startWeeklyReport(db, app.log, { intervalMs: config.staff.weeklyReportCheckSeconds * 1000, siteUrl: config.siteUrl, clock: app.clock });
    app.addHook('onClose', () => weekly.stop());
  }
}
