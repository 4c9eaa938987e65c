import formBody from '@fastify/formbody';
import { FORM_POST_PATHS, formResultPath, type FormName } from '@agency/shared';
import { ContactMessageBodySchema, JobApplicationBodySchema } from '@agency/shared/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyError, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { ApiError, MESSAGES } from '../../../platform/http/api-error';
import { normalizeStrings, takeSubmission, type SubmissionIntakeOptions } from './submission-intake';

const URLENCODED = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;

/**
 * Only what an HTML form of this site posts: anything else is refused before parsing. A form on
 * another site could post here without the preflight that keeps JSON to the site's own pages, so
 * a browser's word that the post comes from another site is refused.
 */
const requireFormPost: onRequestHookHandler = async (request) => {
  if (!URLENCODED.test(request.headers['content-type'] ?? '')) throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', MESSAGES.unsupportedMediaType);
  if (request.headers['sec-fetch-site'] === 'cross-site') throw new ApiError(403, 'CROSS_SITE_FORM', MESSAGES.crossSiteForm);
};

/** The answer is a redirect to the form's result page, with no body: reloading that page sends nothing again. */
const response = { 303: Type.Null({ description: 'No body: the Location header names the form’s result page.' }) };

function toResult(reply: FastifyReply, form: FormName, sent: boolean) {
  return reply.code(303).header('cache-control', 'no-store').header('location', formResultPath(form, sent ? 'sent' : 'not-sent')).send();
}

/**
 * The forms as plain HTML forms post them (urlencoded) when no script runs, or before it has: the
 * same validation, spam trap, rate limit and storage as the JSON routes, answered with a redirect
 * to a page that says whether the form was sent. Whatever keeps one from being stored (a field the
 * API refuses, the rate limit, the database) lands on the page that says it was not.
 */
export const formPostRoutes: FastifyPluginAsyncTypebox<SubmissionIntakeOptions> = async (app, options) => {
  // Registered here only: the JSON routes keep refusing every other body.
  await app.register(formBody);

  const common = (form: FormName) => ({
    onRequest: requireFormPost,
    preValidation: normalizeStrings,
    config: { rateLimit: { max: options.rateLimitMax, timeWindow: options.rateLimitWindow } },
    errorHandler: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      if ((error.statusCode ?? 500) >= 500) request.log.error({ err: error, form }, 'a form posted without a script could not be stored');
      else request.log.info({ err: error, form }, 'a form posted without a script was refused');
      return toResult(reply, form, false);
    },
  });

  app.post(FORM_POST_PATHS.contact, { ...common('contact'), schema: { body: ContactMessageBodySchema, response } }, async (request, reply) => {
    await takeSubmission(request, { kind: 'contact', body: request.body }, options, undefined, 'form-post');
    return toResult(reply, 'contact', true);
  });

  app.post(FORM_POST_PATHS['job-application'], { ...common('job-application'), schema: { body: JobApplicationBodySchema, response } }, async (request, reply) => {
    await takeSubmission(request, { kind: 'applications', body: request.body }, options, undefined, 'form-post');
    return toResult(reply, 'job-application', true);
  });
};
