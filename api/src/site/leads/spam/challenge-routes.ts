import { ERROR_RESPONSES, FormChallengeParamsSchema, FormChallengeResponseSchema } from '@agency/shared/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { SpamDefence } from './spam-defence';

/** How many challenges one address may ask for per submission the rate limit lets it send. */
const CHALLENGES_PER_SUBMISSION = 6;

export interface ChallengeRoutesOptions {
  spam: SpamDefence;
  rateLimitMax: number;
  rateLimitWindow: number;
}

/**
 * `GET /api/forms/:form/challenge`: a fresh form token and a proof-of-work challenge, for a form
 * its script shows without the server's markup (after a navigation in the browser) or whose token
 * grew old. Kept by no cache: each answer is one visitor's.
 */
export const challengeRoutes: FastifyPluginAsyncTypebox<ChallengeRoutesOptions> = async (app, { spam, rateLimitMax, rateLimitWindow }) => {
  app.get(
    '/api/forms/:form/challenge',
    {
      // Each form a visitor is shown asks once (two on the home page), and again for a token grown
      // old: a visitor asks several times as often as they submit.
      config: { rateLimit: { max: rateLimitMax * CHALLENGES_PER_SUBMISSION, timeWindow: rateLimitWindow } },
      schema: { params: FormChallengeParamsSchema, response: { 200: FormChallengeResponseSchema, ...ERROR_RESPONSES } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return spam.challenge(request.params.form);
    },
  );
};
