import { TELEMETRY_PATH } from '@agency/shared';
import { TELEMETRY_LIMITS, TelemetryBatchSchema } from '@agency/shared/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { RecordedBatch, TelemetryRecorder } from '../telemetry/telemetry-recorder';
import { ApiError, MESSAGES } from '../validation/errors';
import { requireJson } from '../validation/require-json';

export interface TelemetryRoutesOptions {
  recorder: TelemetryRecorder;
  /** Beacons one IP address may send per minute. */
  rateLimitPerMinute: number;
  onRecorded(recorded: RecordedBatch): void;
}

/**
 * `POST /api/telemetry`: what visitors' browsers saw of each release (page views, Web Vitals,
 * errors), and the browser session's visit with its source (counted once per session id). 204 once aggregated; 400 for anything malformed, 413 above 64 KiB, 415 for a body that
 * is not JSON, 429 past the per-address limit. Nothing of the request beyond the schema's fields is
 * kept: no address, cookie or header.
 */
export const telemetryRoutes: FastifyPluginAsyncTypebox<TelemetryRoutesOptions> = async (app, { recorder, rateLimitPerMinute, onRecorded }) => {
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
      onRecorded(recorder.record(request.body));
      return reply.code(204).header('cache-control', 'no-store').send();
    },
  );
};
