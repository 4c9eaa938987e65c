import {
  ArticleCreateBodySchema,
  ArticleDetailSchema,
  ArticlePreviewBodySchema,
  BlogPostSchema,
  ArticleListQuerySchema,
  ArticleListSchema,
  ArticleRefusalSchema,
  ArticleRevisionListSchema,
  ArticleRevisionParamsSchema,
  ArticleRevisionSchema,
  ArticleSaveBodySchema,
  ArticleScheduleBodySchema,
  ArticleVersionBodySchema,
  ERROR_RESPONSES,
  IdParamsSchema,
  ImageUploadQuerySchema,
  UploadedImageSchema,
} from '@agency/shared/contracts';
import { ARTICLE_LIMITS, IMAGE_UPLOAD } from '@agency/shared';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../platform/db/connection';
import { ApiError } from '../../platform/http/api-error';
import { STAFF_MESSAGES } from '../common/staff-messages';
import type { Actor } from '../inbox/lead-work';
import { sessionOf } from '../sessions/staff-guard';
import { acceptImageBodies, keepUpload, preparedOrRefused, prepareUploadedImage, previewPost, UPLOAD_MESSAGES } from '../../site/content';
import { findArticle, findRevision, listArticles, listRevisions } from './article-repository';
import { createArticle, publishArticle, restoreRevision, saveArticle, scheduleArticle, takeOverArticle, unpublishArticle } from './article-work';

/**
 * A body carrying a whole article: its Markdown at the longest, in UTF-8 (up to 3 bytes a
 * character in Ukrainian text and typography), with the other fields and JSON's escaping.
 */
const ARTICLE_BODY_LIMIT = ARTICLE_LIMITS.markdown * 3 + 64 * 1024;

/** Articles in the console («Статті»): editors and admins read and write them; viewers get 403. */
export const articleRoutes: FastifyPluginAsyncTypebox<{ db: Db; mediaDir: string }> = async (app, { db, mediaDir }) => {
  const editor = { staffRole: 'editor' as const };
  const actorOf = (request: FastifyRequest): Actor => ({ member: sessionOf(request).member, address: request.ip });
  const detail = { 200: ArticleDetailSchema, 409: ArticleRefusalSchema, ...ERROR_RESPONSES };

  app.get('/api/staff/articles', { config: editor, schema: { querystring: ArticleListQuerySchema, response: { 200: ArticleListSchema, ...ERROR_RESPONSES } } }, async (request) =>
    listArticles(db, request.query.q),
  );

  app.post(
    '/api/staff/articles',
    { config: editor, bodyLimit: ARTICLE_BODY_LIMIT, schema: { body: ArticleCreateBodySchema, response: { 201: ArticleDetailSchema, ...ERROR_RESPONSES } } },
    async (request, reply) => reply.code(201).send(await createArticle(db, request.body, actorOf(request))),
  );

  app.get('/api/staff/articles/:id', { config: editor, schema: { params: IdParamsSchema, response: { 200: ArticleDetailSchema, ...ERROR_RESPONSES } } }, async (request) => {
    const article = await findArticle(db, Number(request.params.id));
    if (!article) throw new ApiError(404, 'ARTICLE_NOT_FOUND', STAFF_MESSAGES.articleNotFound);
    return article;
  });

  app.put(
    '/api/staff/articles/:id',
    { config: editor, bodyLimit: ARTICLE_BODY_LIMIT, schema: { params: IdParamsSchema, body: ArticleSaveBodySchema, response: detail } },
    async (request) => saveArticle(db, Number(request.params.id), request.body, actorOf(request)),
  );

  app.post('/api/staff/articles/:id/take-over', { config: editor, schema: { params: IdParamsSchema, response: detail } }, async (request) =>
    takeOverArticle(db, Number(request.params.id), actorOf(request)),
  );

  app.post('/api/staff/articles/:id/publish', { config: editor, schema: { params: IdParamsSchema, body: ArticleVersionBodySchema, response: detail } }, async (request) =>
    publishArticle(db, Number(request.params.id), request.body.version, actorOf(request)),
  );

  app.post('/api/staff/articles/:id/schedule', { config: editor, schema: { params: IdParamsSchema, body: ArticleScheduleBodySchema, response: detail } }, async (request) =>
    scheduleArticle(db, Number(request.params.id), request.body.version, request.body.publishAt, actorOf(request)),
  );

  app.post('/api/staff/articles/:id/unpublish', { config: editor, schema: { params: IdParamsSchema, body: ArticleVersionBodySchema, response: detail } }, async (request) =>
    unpublishArticle(db, Number(request.params.id), request.body.version, actorOf(request)),
  );

  acceptImageBodies(app);

  app.post(
    '/api/staff/articles/:id/images',
    { config: editor, bodyLimit: IMAGE_UPLOAD.maxBytes, schema: { params: IdParamsSchema, querystring: ImageUploadQuerySchema, response: { 201: UploadedImageSchema, ...ERROR_RESPONSES } } },
    async (request, reply) => {
      const article = await findArticle(db, Number(request.params.id));
      if (!article) throw new ApiError(404, 'ARTICLE_NOT_FOUND', STAFF_MESSAGES.articleNotFound);
      const image = await preparedOrRefused(request.body, UPLOAD_MESSAGES.notAnImage, (bytes) => prepareUploadedImage(bytes, request.query.use, article.slug));
      await keepUpload(db, mediaDir, image, sessionOf(request).member.id);
      return reply.code(201).send({ url: image.url, width: image.width, height: image.height });
    },
  );

  // The preview renders what the editor has on screen (saved or not) with the site's one renderer.
  app.post(
    '/api/staff/articles/:id/preview',
    {
      config: editor,
      bodyLimit: ARTICLE_BODY_LIMIT,
      schema: { params: IdParamsSchema, body: ArticlePreviewBodySchema, response: { 200: BlogPostSchema, ...ERROR_RESPONSES } },
    },
    async (request) => {
      const article = await findArticle(db, Number(request.params.id));
      if (!article) throw new ApiError(404, 'ARTICLE_NOT_FOUND', STAFF_MESSAGES.articleNotFound);
      return previewPost(article.id, request.body, article.publishedAt ?? new Date().toISOString());
    },
  );

  app.get('/api/staff/articles/:id/revisions', { config: editor, schema: { params: IdParamsSchema, response: { 200: ArticleRevisionListSchema, ...ERROR_RESPONSES } } }, async (request) => {
    const id = Number(request.params.id);
    if (!(await findArticle(db, id))) throw new ApiError(404, 'ARTICLE_NOT_FOUND', STAFF_MESSAGES.articleNotFound);
    return listRevisions(db, id);
  });

  app.get(
    '/api/staff/articles/:id/revisions/:revisionId',
    { config: editor, schema: { params: ArticleRevisionParamsSchema, response: { 200: ArticleRevisionSchema, ...ERROR_RESPONSES } } },
    async (request) => {
      const revision = await findRevision(db, Number(request.params.id), Number(request.params.revisionId));
      if (!revision) throw new ApiError(404, 'REVISION_NOT_FOUND', STAFF_MESSAGES.revisionNotFound);
      return revision;
    },
  );

  app.post(
    '/api/staff/articles/:id/revisions/:revisionId/restore',
    { config: editor, schema: { params: ArticleRevisionParamsSchema, body: ArticleVersionBodySchema, response: detail } },
    async (request) => restoreRevision(db, Number(request.params.id), Number(request.params.revisionId), request.body.version, actorOf(request)),
  );
};
