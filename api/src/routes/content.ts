import { createHash } from 'node:crypto';
import {
  BLOG_LIMIT_MAX,
  BlogListQuerySchema,
  BlogPostParamsSchema,
  BlogPostSchema,
  BlogPostSummaryListSchema,
  ERROR_RESPONSES,
  ServiceListSchema,
} from '@agency/shared/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '../db/connection';
import { getBlogPost, listBlogPosts, listServices } from '../db/repository';
import { ApiError, MESSAGES } from '../validation/errors';

/** Reads may be cached briefly by browsers and proxies, and revalidated with the ETag. */
const READ_CACHE_CONTROL = 'public, max-age=60';

/** Ids are positive integers in their canonical form; anything else is a 404. */
function parseId(raw: string): number | undefined {
  if (!/^[1-9][0-9]{0,14}$/.test(raw)) return undefined;
  return Number(raw);
}

export const contentRoutes: FastifyPluginAsyncTypebox<{ db: Database }> = async (app, { db }) => {
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

  app.get('/api/services', { schema: { response: { 200: ServiceListSchema, ...ERROR_RESPONSES } } }, async () =>
    listServices(db),
  );

  app.get(
    '/api/blog',
    { schema: { querystring: BlogListQuerySchema, response: { 200: BlogPostSummaryListSchema, ...ERROR_RESPONSES } } },
    async (request) => listBlogPosts(db, request.query.limit ? Number(request.query.limit) : BLOG_LIMIT_MAX),
  );

  app.get(
    '/api/blog/:id',
    { schema: { params: BlogPostParamsSchema, response: { 200: BlogPostSchema, ...ERROR_RESPONSES } } },
    async (request) => {
      const id = parseId(request.params.id);
      const post = id === undefined ? undefined : await getBlogPost(db, id);
      if (!post) throw new ApiError(404, 'NOT_FOUND', MESSAGES.postNotFound);
      return post;
    },
  );
};
