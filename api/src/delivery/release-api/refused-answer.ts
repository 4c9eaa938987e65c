import { ApiError } from '../../platform/http/api-error';
import { ConcurrentChangeError, RefusedError } from '../releases/refused-error';

/**
 * A release command's refusal as every HTTP caller (the release API, the console) gets it: 409
 * with the command's own message, CONCURRENT_CHANGE when the state moved on, REFUSED otherwise;
 * anything else is thrown as it is.
 */
export function answerRefusal(error: unknown): never {
  if (error instanceof ConcurrentChangeError) throw new ApiError(409, 'CONCURRENT_CHANGE', error.message);
  if (error instanceof RefusedError) throw new ApiError(409, 'REFUSED', error.message);
  throw error;
}
