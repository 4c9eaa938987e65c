import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isDatabaseUnavailable } from '../db/database-errors';
import { DATABASE_RETRY_AFTER_SECONDS } from '../db/database-watch';
import { BAD_URL_PATH } from './server-lifecycle';
import { ApiError, MESSAGES, payloadTooLargeMessage, validationError, type ValidationIssue } from '../http/api-error';

/** Maps any error to the API's JSON error body; never leaks a stack trace or SQL. */
function toApiError(error: FastifyError | ApiError, request: FastifyRequest): ApiError {
  const tooLarge = () => new ApiError(413, 'PAYLOAD_TOO_LARGE', payloadTooLargeMessage(request.routeOptions.bodyLimit ?? request.server.initialConfig.bodyLimit ?? 0));
  if (error instanceof ApiError) return error;
  if (error.validation) {
    return validationError(error.validation as unknown as ValidationIssue[], error.validationContext);
  }
  const status = error.statusCode ?? 500;
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', MESSAGES.unsupportedMediaType);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return tooLarge();
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(400, 'EMPTY_BODY', MESSAGES.emptyBody);
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError(400, 'INVALID_JSON', MESSAGES.invalidJson);
    default:
  }
  if (status === 429) return new ApiError(429, 'RATE_LIMITED', MESSAGES.rateLimited);
  if (isDatabaseUnavailable(error)) return new ApiError(503, 'DATABASE_UNAVAILABLE', MESSAGES.unavailable);
  if (error instanceof SyntaxError && status === 400) return new ApiError(400, 'INVALID_JSON', MESSAGES.invalidJson);
  if (status === 413) return tooLarge();
  if (status === 404) return new ApiError(404, 'NOT_FOUND', MESSAGES.notFound);
  if (status >= 400 && status < 500) return new ApiError(status, 'BAD_REQUEST', MESSAGES.badRequest);
  return new ApiError(500, 'INTERNAL_ERROR', MESSAGES.internal);
}

/** Every error answers with the API's JSON error body; an unreachable database also tells the database watch. */
async function errorHandler(app: FastifyInstance): Promise<void> {
  const watch = app.databaseWatch;
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const apiError = toApiError(error, request);
    // Nothing was stored: the same request can succeed once the database is back, and says when.
    if (apiError.code === 'DATABASE_UNAVAILABLE') {
      watch.failed(error);
      reply.header('retry-after', DATABASE_RETRY_AFTER_SECONDS);
    } else if (apiError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.debug({ code: apiError.code }, 'request rejected');
    return reply.code(apiError.statusCode).header('cache-control', 'no-store').send(apiError.toBody());
  });
  // Malformed URLs are rewritten to this route, so their answer is shaped here too.
  app.all(BAD_URL_PATH, async () => {
    throw new ApiError(400, 'BAD_URL', MESSAGES.badUrl);
  });
}

export default fp(errorHandler, { name: 'error-handler', dependencies: ['database'] });
