import type { onRequestHookHandler } from 'fastify';
import { ApiError, MESSAGES } from './api-error';

const JSON_TYPE = /^application\/json\s*(?:;|$)/i;

/** Only JSON bodies: anything else (or no content type at all) is a 415 before parsing. */
export const requireJson: onRequestHookHandler = async (request) => {
  const type = request.headers['content-type'];
  if (!type || !JSON_TYPE.test(type)) {
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', MESSAGES.unsupportedMediaType);
  }
};
