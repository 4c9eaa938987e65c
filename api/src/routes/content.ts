import { createHash } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../db/connection';
import { getBlogPost, listBlogPosts, listServices } from '../db/repository';
import {
  BLOG_LIMIT_MAX,
  blogListQuerySchema,
  blogPostParamsSchema,
  blogPostSchema,
  blogSummarySchema,
  errorResponseSchema,
  serviceSchema,
} from '../validation/schemas';
import { ApiError, MESSAGES } from '../validation/errors';

/** Reads may be cached briefly by browsers and proxies, and revalidated with the ETag. */
const READ_CACHE_CONTROL = 'public, max-age=60';

/** Ids are positive integers in their canonical form; anything else is a 404. */
function parseId(raw: string): number | undefined {
  if (!/^[1-9][0-9]{0,14}$/.test(raw)) return undefined;
  return Number(raw);
}

export const contentRoutes: FastifyPluginAsync<{ db: Database }> = async (app, { db }) => {
  // Strong ETag of the serialized body; a matching If-None-Match gets a 304 without a body.
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    const etag = `"${createHash('sha1').update(payload).digest('base64url')}"`;
    reply.header('etag', etag);
    reply.header('cache-control', READ_CACHE_CONTROL);
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
      reply.code(304);
      return '';
    }
    return payload;
  });

  app.get('/api/services', { schema: { response: { 200: { type: 'array', items: serviceSchema } } } }, async () =>
    listServices(db),
  );

  app.get<{ Querystring: { limit?: string } }>(
    '/api/blog',
    {
      schema: {
        querystring: blogListQuerySchema,
        response: { 200: { type: 'array', items: blogSummarySchema }, '4xx': errorResponseSchema },
      },
    },
    async (request) => listBlogPosts(db, request.query.limit ? Number(request.query.limit) : BLOG_LIMIT_MAX),
  );

  app.get<{ Params: { id: string } }>(
    '/api/blog/:id',
    { schema: { params: blogPostParamsSchema, response: { 200: blogPostSchema, '4xx': errorResponseSchema } } },
    async (request) => {
      const id = parseId(request.params.id);
      const post = id === undefined ? undefined : await getBlogPost(db, id);
      if (!post) throw new ApiError(404, 'NOT_FOUND', MESSAGES.postNotFound);
      return post;
    },
  );
};
