import {
  BLOG_LIMIT_MAX,
  BlogPostSummaryListSchema,
  ContactMessageBodySchema,
  CreatedResponseSchema,
  ERROR_RESPONSES,
} from '@agency/shared/contracts';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/app';
import { testConfig } from '../../helpers/app';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { httpRequest, type HttpRequestOptions } from '../../helpers/http';

/**
 * The shared TypeBox contracts as the API's Fastify compiles them (its Ajv options, its
 * serializer): one schema both validates what comes in and shapes what goes out.
 */

let testDb: TestDatabase;
let app: FastifyInstance;
let baseUrl: string;

const request = (method: string, path: string, options?: HttpRequestOptions) => httpRequest(baseUrl, method, path, options);

const SUMMARY = {
  id: 7,
  title: 'Заголовок',
  excerpt: 'Коротко',
  category: 'SMM',
  image_url: '/media/blog/x.svg',
  created_at: '2026-01-01T00:00:00.000Z',
  author: 'Авторка',
};

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildApp({ config: testConfig(testDb.url) });
  // Routes of this suite only, on the real app before it starts.
  app.get('/test/summaries', { schema: { response: { 200: BlogPostSummaryListSchema, ...ERROR_RESPONSES } } }, async () => [
    { ...SUMMARY, content: '<p>Повний текст</p>', slug: 'internal-slug' },
  ]);
  app.post<{ Body: unknown }>(
    '/test/echo-contact',
    { schema: { body: ContactMessageBodySchema, response: { 201: CreatedResponseSchema, ...ERROR_RESPONSES } } },
    async (request, reply) => reply.code(201).send({ id: Object.keys(request.body as object).length, echoed: request.body }),
  );
  app.get('/test/error', { schema: { response: { 200: CreatedResponseSchema, ...ERROR_RESPONSES } } }, async (_request, reply) =>
    reply.code(409).send({ error: { code: 'CONFLICT', message: 'Конфлікт', fields: { name: 'Імʼя зайняте' } }, stack: 'at x' }),
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  baseUrl = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

describe('response serialization', () => {
  it('sends only the fields of the response schema: a summary never carries the article or the slug', async () => {
    const response = await request('GET', '/test/summaries');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([SUMMARY]);
  });

  it('shapes error answers by the error contract, dropping anything else', async () => {
    const response = await request('GET', '/test/error');
    expect(response.statusCode).toBe(409);
    expect(response.body).toBe(
      JSON.stringify({ error: { code: 'CONFLICT', message: 'Конфлікт', fields: { name: 'Імʼя зайняте' } } }),
    );
  });

  it('drops what a 201 has beyond its id', async () => {
    const response = await request('POST', '/test/echo-contact', {
      json: { name: 'Олена', email: 'olena@example.com', phone: '+380671234567', message: 'Привіт', unknown: 'x' },
    });
    expect(response.statusCode).toBe(201);
    // The unknown field was removed before the handler ran (4 fields left), and `echoed` is not sent.
    expect(response.json()).toEqual({ id: 4 });
  });
});

describe('the blog limit, written once', () => {
  it(`accepts ?limit=${BLOG_LIMIT_MAX} and refuses one more, naming BLOG_LIMIT_MAX in the message`, async () => {
    expect((await request('GET', `/api/blog?limit=${BLOG_LIMIT_MAX}`)).statusCode).toBe(200);
    const response = await request('GET', `/api/blog?limit=${BLOG_LIMIT_MAX + 1}`);
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: { fields?: unknown } }>().error.fields).toEqual({
      limit: `Параметр limit має бути цілим числом від 1 до ${BLOG_LIMIT_MAX}`,
    });
  });
});
