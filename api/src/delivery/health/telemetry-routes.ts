import { TELEMETRY_PATH } from '@agency/shared';
import { TELEMETRY_LIMITS, TelemetryBatchSchema } from '@agency/shared/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TelemetryBatch } from '@agency/shared';
import type { FastifyRequest } from 'fastify';
import type { Judged } from '../releases/judged-releases';
import type { DropReason, ReportAdmission, ReportingClient } from './report-admission';
import type { RecordedBatch, TelemetryRecorder } from './telemetry-recorder';
import { ApiError, MESSAGES } from '../../platform/http/api-error';
import { requireJson } from '../../platform/http/require-json';

/** Told of each beacon the route accepts, as sent (valid by its schema), with its request. */
export type BeaconListener = (request: FastifyRequest, batch: TelemetryBatch) => void;

export interface TelemetryRoutesOptions {
  recorder: TelemetryRecorder;
  admission: ReportAdmission;
  /** Who sent a beacon (its client, with the releases the server assigns it) and which releases a canary judges now. */
  reporter(request: FastifyRequest): Promise<{ client: ReportingClient; judged: Judged }>;
  /** Beacons one IP address may send per minute. */
  rateLimitPerMinute: number;
  onRecorded(recorded: RecordedBatch): void;
  onBeacon: BeaconListener;
  onDropped(reason: DropReason, count: number): void;
}

/**
 * `POST /api/telemetry`: what visitors' browsers saw of each release (page views, Web Vitals,
 * errors), and the browser session's visit with its source (counted once per session id). 204
 * once aggregated; 400 for anything malformed, 413 above 64 KiB, 415 for a body that is not
 * JSON, 429 past the per-address limit. What a beacon says counts only for the releases the
 * server assigns its client and within that client's allowance (report-admission.ts);
 * the rest is answered 204 too, and dropped. Nothing of the request beyond the schema's fields is
 * kept: no address (a keyed hash of it, while a canary judges a release), cookie or header.
 */
export const telemetryRoutes: FastifyPluginAsyncTypebox<TelemetryRoutesOptions> = async (
  app,
  { recorder, admission, reporter, rateLimitPerMinute, onRecorded, onBeacon, onDropped },
) => {
  app.post(
    TELEMETRY_PATH,
    {
      bodyLimit: TELEMETRY_LIMITS.bodyBytes,
      onRequest: requireJson,
      config: { rateLimit: { max: rateLimitPerMinute, timeWindow: 60_000 } },
      // The answer is an empty 204: nothing to compress, and no document or script for helmet's
      // headers to protect. Skipping both saves a fifth of what a beacon costs.
      helmet: false,
      compress: false,
      schema: { body: TelemetryBatchSchema },
    },
    async (request, reply) => {
      const { page_views = [], vitals = [], errors = [], session } = request.body;
      if (page_views.length + vitals.length + errors.length === 0 && !session) throw new ApiError(400, 'EMPTY_REPORT', MESSAGES.emptyTelemetry);
      const { client, judged } = await reporter(request);
      const { batch, dropped } = admission.report(request.body, client);
      for (const [reason, count] of Object.entries(dropped) as [DropReason, number][]) if (count > 0) onDropped(reason, count);
      onRecorded(recorder.record(batch, { client: client.id, judged }));
      onBeacon(request, request.body);
      return reply.code(204).header('cache-control', 'no-store').send();
    },
  );
};
