import { Value } from '@sinclair/typebox/value';
import { BlogListingQuerySchema, BlogListQuerySchema, BlogPostSchema, BlogPostSummarySchema, ServiceSchema } from './content';
import { BLOG_CATEGORY_MAX_LENGTH, BLOG_LIMIT_MAX, BLOG_PAGE_MAX } from './limits';

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

describe('BlogListingQuerySchema', () => {
  const accepts = (query: Record<string, unknown>) => Value.Check(BlogListingQuerySchema, query);

  it(`takes a canonical page 1..${BLOG_PAGE_MAX} and a category, each optional`, () => {
    expect(accepts({})).toBe(true);
    expect(accepts({ page: '1', category: 'Кейси' })).toBe(true);
    expect(accepts({ page: String(BLOG_PAGE_MAX) })).toBe(true);
    for (const page of ['0', '01', '-1', '1.5', 'abc', '', String(BLOG_PAGE_MAX + 1)]) expect(accepts({ page })).toBe(false);
    expect(accepts({ page: 2 })).toBe(false);
  });

  it(`takes a category of 1..${BLOG_CATEGORY_MAX_LENGTH} characters`, () => {
    expect(accepts({ category: 'к'.repeat(BLOG_CATEGORY_MAX_LENGTH) })).toBe(true);
    expect(accepts({ category: 'к'.repeat(BLOG_CATEGORY_MAX_LENGTH + 1) })).toBe(false);
    expect(accepts({ category: '' })).toBe(false);
  });

  it('refuses unknown parameters (a schema, so Ajv does not silently drop them)', () => {
    expect(accepts({ page: '1', sort: 'old' })).toBe(false);
    expect(BlogListingQuerySchema.additionalProperties).toEqual(expect.objectContaining({ not: {} }));
  });
});

describe('BlogPostSchema', () => {
  it('is every field of a summary, each required (the post page shows them all), its last change and the article HTML', () => {
    expect(Object.keys(BlogPostSchema.properties)).toEqual([...Object.keys(BlogPostSummarySchema.properties), 'updated_at', 'content']);
    expect(BlogPostSchema.required).toEqual([...Object.keys(BlogPostSummarySchema.properties), 'content']);
  });
});

describe('ServiceSchema', () => {
  it('takes a price, null (an individual price) or no price at all, nothing else', () => {
    const service = { id: 1, title: 'SMM', description: 'Опис', icon_url: '/media/x.svg', features: ['a'] };
    expect(Value.Check(ServiceSchema, { ...service, price_from: 12000 })).toBe(true);
    expect(Value.Check(ServiceSchema, { ...service, price_from: null })).toBe(true);
    expect(Value.Check(ServiceSchema, service)).toBe(true);
    expect(Value.Check(ServiceSchema, { ...service, price_from: '12000' })).toBe(false);
    expect(ServiceSchema.properties.price_from).toMatchObject({ type: ['number', 'null'] });
  });

  it('takes a service without an id, which the spec does not give one', () => {
    const { id: _id, ...withoutId } = { id: 1, title: 'SMM', description: 'Опис', icon_url: '/media/x.svg', features: ['a'], price_from: 1 };
    expect(Value.Check(ServiceSchema, withoutId)).toBe(true);
  });
});
