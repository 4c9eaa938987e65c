import { Value } from '@sinclair/typebox/value';
import { BlogListQuerySchema, BlogPostSchema, BlogPostSummarySchema, ServiceSchema } from './content';
import { BLOG_LIMIT_MAX } from './limits';

describe('BlogListQuerySchema', () => {
  const accepts = (limit: string) => Value.Check(BlogListQuerySchema, { limit });

  it(`takes limit 1..${BLOG_LIMIT_MAX} (BLOG_LIMIT_MAX) as query text, or no limit`, () => {
    expect(Value.Check(BlogListQuerySchema, {})).toBe(true);
    expect(accepts('1')).toBe(true);
    expect(accepts(String(BLOG_LIMIT_MAX))).toBe(true);
    expect(accepts(String(BLOG_LIMIT_MAX + 1))).toBe(false);
    expect(accepts('0')).toBe(false);
    expect(accepts('01')).toBe(false);
  });

  it('takes no number: query values are text and nothing coerces them', () => {
    expect(Value.Check(BlogListQuerySchema, { limit: 3 })).toBe(false);
  });
});

describe('BlogPostSchema', () => {
  it('is the summary plus the article HTML', () => {
    expect(Object.keys(BlogPostSchema.properties)).toEqual([...Object.keys(BlogPostSummarySchema.properties), 'content']);
    expect(BlogPostSchema.required).toEqual([...(BlogPostSummarySchema.required ?? []), 'content']);
  });
});

describe('ServiceSchema', () => {
  it('takes a price or null (an individual price), nothing else', () => {
    const service = { id: 1, title: 'SMM', description: 'Опис', icon_url: '/media/x.svg', features: ['a'] };
    expect(Value.Check(ServiceSchema, { ...service, price_from: 12000 })).toBe(true);
    expect(Value.Check(ServiceSchema, { ...service, price_from: null })).toBe(true);
    expect(Value.Check(ServiceSchema, { ...service, price_from: '12000' })).toBe(false);
    expect(ServiceSchema.properties.price_from).toMatchObject({ type: ['number', 'null'] });
  });
});
