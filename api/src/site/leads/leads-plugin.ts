import type { LeadKind } from '@agency/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppConfig } from '../../platform/config';
import { channelNames, createChannels } from './outbox/channels';
import { startOutboxWorker } from './outbox/outbox-worker';
import { startRetentionPurge } from './retention/retention-schedule';
import { challengeRoutes } from './spam/challenge-routes';
import { createSpamMetrics } from './spam/spam-metrics';
import { submissionRoutes } from './submissions/submission-routes';
import { formPostRoutes } from './submissions/form-post-routes';

export interface LeadsPluginOptions {
  config: Pick<AppConfig, 'leads' | 'rateLimitMax' | 'rateLimitWindow'>;
  /** Told of each lead stored and let through, with its request (the site's counting links it to the visit). */
  onLeadStored(request: FastifyRequest, lead: { kind: LeadKind; submissionId: number }): void;
}

/**
 * Contact messages and job applications: stored by their routes, then sent to the agency from
 * the outbox, not from the request, so a receiver that is down never fails or slows a submission,
 * and what is stored is delivered after a restart. The worker's deliveries in flight end (and are
 * recorded) on close, before the database closes. Leads past the privacy page's retention periods
 * are deleted every hour by one process of the site (retention/).
 */
export async function leadsPlugin(app: FastifyInstance, { config, onLeadStored }: LeadsPluginOptions): Promise<void> {
  const { db } = app;
  const channels = createChannels(config.leads);
  const outbox = startOutboxWorker({ db, channels, log: app.log });
  app.addHook('onClose', () => outbox.stop());
  const retention = startRetentionPurge(db, app.log);
  app.addHook('onClose', () => retention.stop());
  const spam = app.spamDefence;
  const intake = {
    db,
    rateLimitMax: config.rateLimitMax,
    rateLimitWindow: config.rateLimitWindow,
    leadChannels: channelNames(config.leads),
    onLeadStored: (request: FastifyRequest, lead: { kind: LeadKind; submissionId: number }) => {
      outbox.wake();
      onLeadStored(request, lead);
    },
    spam,
    spamMetrics: createSpamMetrics(app.metrics.registry),
    followUp: app.leadFollowUp,
  };
  await app.register(challengeRoutes, { spam, rateLimitMax: config.rateLimitMax, rateLimitWindow: config.rateLimitWindow });
  await app.register(submissionRoutes, intake);
  await app.register(formPostRoutes, intake);
}
