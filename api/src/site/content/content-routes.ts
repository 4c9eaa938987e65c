import {
  BLOG_LIMIT_MAX,
  BLOG_PAGE_SIZE,
  BLOG_RELATED_LIMIT,
  BlogListingQuerySchema,
  BlogListingSchema,
  BlogListQuerySchema,
  BlogPostParamsSchema,
  BlogPostSchema,
  BlogPostSummaryListSchema,
  ERROR_RESPONSES,
  ServiceListSchema,
} from '@agency/shared/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ContentCache } from './content-cache';
import { sendCached, serializeOnce } from '../../platform/http/send-cached';
import type { Database } from '../../platform/db/connection';
import { getBlogPost, listBlogCategories, listBlogPage, listBlogPosts, listRelatedPosts, listServices } from './content-repository';
import { ApiError, MESSAGES } from '../../platform/http/api-error';

/** Ids are positive integers in their canonical form; anything else is a 404. */
function parseId(raw: string): number | undefined {
  if (!/^[1-9][0-9]{0,14}$/.test(raw)) return undefined;
  return Number(raw);
}

/** `cache` keeps every answer, serialized once per content revision. */
export const contentRoutes: FastifyPluginAsyncTypebox<{ db: Database; cache: ContentCache }> = async (app, { db, cache }) => {
  app.get('/api/services', { schema: { response: { 200: ServiceListSchema, ...ERROR_RESPONSES } } }, async (request, reply) => {
    const body = await cache.get('services', async () => serializeOnce(reply, await listServices(db)));
    return sendCached(request, reply, body);
  });

  app.get(
    '/api/blog',
    { schema: { querystring: BlogListQuerySchema, response: { 200: BlogPostSummaryListSchema, ...ERROR_RESPONSES } } },
    async (request, reply) => {
      const limit = request.query.limit ? Number(request.query.limit) : BLOG_LIMIT_MAX;
      const body = await cache.get(`blog:${limit}`, async () => serializeOnce(reply, await listBlogPosts(db, limit)));
      return sendCached(request, reply, body);
    },
  );

  // A static segment: Fastify matches it before `/api/blog/:id`.
  app.get(
    '/api/blog/listing',
    { schema: { querystring: BlogListingQuerySchema, response: { 200: BlogListingSchema, ...ERROR_RESPONSES } } },
    async (request, reply) => {
      const page = request.query.page ? Number(request.query.page) : 1;
      const category = request.query.category ?? null;
      const body = await cache.get(`listing:${JSON.stringify([page, category])}`, async () => {
        const [categories, { posts, total }] = await Promise.all([
          listBlogCategories(db),
          listBlogPage(db, { category, offset: (page - 1) * BLOG_PAGE_SIZE, limit: BLOG_PAGE_SIZE }),
        ]);
        // A category is a page only while it has published posts: an unknown one does not exist
        // (so no address can put any text into a page's title). The first page of every post
        // exists even when there are none; later pages only with posts.
        if (category !== null && !categories.some((known) => known.name === category)) return undefined;
        const pageCount = Math.max(1, Math.ceil(total / BLOG_PAGE_SIZE));
        return page > pageCount ? undefined : serializeOnce(reply, { posts, page, pageCount, total, categories });
      });
      if (!body) throw new ApiError(404, 'NOT_FOUND', MESSAGES.blogPageNotFound);
      return sendCached(request, reply, body);
    },
  );

  app.get(
    '/api/blog/:id/related',
    { schema: { params: BlogPostParamsSchema, response: { 200: BlogPostSummaryListSchema, ...ERROR_RESPONSES } } },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const body =
        id === undefined
          ? undefined
          : await cache.get(`related:${id}`, async () => {
              const posts = await listRelatedPosts(db, id, BLOG_RELATED_LIMIT);
              return posts && serializeOnce(reply, posts);
            });
      if (!body) throw new ApiError(404, 'NOT_FOUND', MESSAGES.postNotFound);
      return sendCached(request, reply, body);
    },
  );

  app.get(
    '/api/blog/:id',
    { schema: { params: BlogPostParamsSchema, response: { 200: BlogPostSchema, ...ERROR_RESPONSES } } },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const body =
        id === undefined
          ? undefined
          : await cache.get(`post:${id}`, async () => {
              const post = await getBlogPost(db, id);
              return post && serializeOnce(reply, post);
            });
      if (!body) throw new ApiError(404, 'NOT_FOUND', MESSAGES.postNotFound);
      return sendCached(request, reply, body);
    },
  );
};
