import { Value } from '@sinclair/typebox/value';
import type { TObject } from '@sinclair/typebox';
import { BlogCategoryCountSchema, BlogPostSchema, BlogPostSummarySchema, ServiceSchema } from '../contracts/content';
import {
  isBlogCategoryCount,
  isBlogPost,
  isBlogPostSummary,
  isService,
  readBlogListing,
  readListOf,
  readWhole,
  type Guard,
} from './response-guards';

const service = {
  id: 1,
  title: 'SMM',
  description: 'Ведення сторінок',
  icon_url: '/media/services/smm.svg',
  features: ['Контент-план'],
  price_from: 12000,
};
const summary = {
  id: 5,
  title: 'Кейс',
  excerpt: 'Коротко',
  category: 'Кейси',
  image_url: '/media/blog/a.jpg',
  created_at: '2026-09-02T12:00:00.000Z',
  author: 'Марта',
};
const post = { ...summary, updated_at: '2026-09-03T08:00:00.000Z', content: '<p>Текст</p>' };
const categoryCount = { name: 'Кейси', count: 2 };
const listing = { posts: [summary], page: 1, pageCount: 1, total: 1, categories: [categoryCount] };

const withoutField = (value: Record<string, unknown>, field: string) => {
  const { [field]: _dropped, ...rest } = value;
  return rest;
};

// Each guard must accept what its schema accepts and reject what it rejects: the guards are the
// browser's copy of the contract. A field the schema marks optional may be absent.
describe.each<[string, Guard<unknown>, TObject, Record<string, unknown>]>([
  ['isService', isService, ServiceSchema, service],
  ['isBlogPostSummary', isBlogPostSummary, BlogPostSummarySchema, summary],
  ['isBlogPost', isBlogPost, BlogPostSchema, post],
  ['isBlogCategoryCount', isBlogCategoryCount, BlogCategoryCountSchema, categoryCount],
])('%s', (_name, guard, schema, valid) => {
  const required = schema.required ?? [];
  const optional = Object.keys(schema.properties).filter((field) => !required.includes(field));

  it('accepts a valid answer, as the schema does', () => {
    expect(Value.Check(schema, valid)).toBe(true);
    expect(guard(valid)).toBe(true);
  });

  it.each(required)('rejects an answer without %s', (field) => {
    const rest = withoutField(valid, field);
    expect(Value.Check(schema, rest)).toBe(false);
    expect(guard(rest)).toBe(false);
  });

  if (optional.length > 0) {
    it.each(optional)('accepts an answer without the optional %s', (field) => {
      const rest = withoutField(valid, field);
      expect(Value.Check(schema, rest)).toBe(true);
      expect(guard(rest)).toBe(true);
    });

    it('accepts an answer with every optional field absent', () => {
      const bare = optional.reduce(withoutField, valid);
      expect(Value.Check(schema, bare)).toBe(true);
      expect(guard(bare)).toBe(true);
    });
  }

  it.each(Object.keys(schema.properties))('rejects an object as %s', (field) => {
    const broken = { ...valid, [field]: { nested: true } };
    expect(Value.Check(schema, broken)).toBe(false);
    expect(guard(broken)).toBe(false);
  });

  it('rejects what is not an object', () => {
    for (const value of [null, undefined, 'text', 3, [valid]]) expect(guard(value)).toBe(false);
  });
});

describe('a service as the spec describes it', () => {
  it('has an optional id and an optional price, in the schema and in the guard', () => {
    expect(ServiceSchema.required).toEqual(expect.arrayContaining(['title', 'description', 'icon_url', 'features']));
    expect(ServiceSchema.required).not.toContain('id');
    expect(ServiceSchema.required).not.toContain('price_from');
  });

  it('takes an individual price as null or as no price_from at all, but not a price as text', () => {
    expect(isService({ ...service, price_from: null })).toBe(true);
    expect(isService(withoutField(service, 'price_from'))).toBe(true);
    expect(isService({ ...service, price_from: '12000' })).toBe(false);
  });
});

describe('a post card needs only its id and title', () => {
  it('is what the summary schema requires', () => {
    expect([...(BlogPostSummarySchema.required ?? [])].sort()).toEqual(['id', 'title']);
  });
});

describe('readListOf', () => {
  const readServices = readListOf(isService);

  it('keeps every well-formed item in order and leaves out each malformed one', () => {
    const noPrice = withoutField({ ...service, id: 2, title: 'Контент' }, 'price_from');
    const noId = withoutField({ ...service, title: 'Аналітика' }, 'id');
    const broken = { ...service, id: 4, features: 'Контент-план' };
    expect(readServices([service, broken, noPrice, noId])).toEqual({ data: [service, noPrice, noId], dropped: [broken] });
  });

  it('reads an empty list as empty, and what is not a list as nothing', () => {
    expect(readServices([])).toEqual({ data: [], dropped: [] });
    for (const value of [null, undefined, { items: [service] }, 'text']) expect(readServices(value)).toBeUndefined();
  });
});

describe('readWhole', () => {
  it('takes a post whole or not at all', () => {
    const readPost = readWhole(isBlogPost);
    expect(readPost(post)).toEqual({ data: post, dropped: [] });
    expect(readPost(withoutField(post, 'content'))).toBeUndefined();
  });
});

describe('readBlogListing', () => {
  it('reads a valid listing whole', () => {
    expect(readBlogListing(listing)).toEqual({ data: listing, dropped: [] });
  });

  it('leaves out a malformed post or category and keeps the rest of the page', () => {
    const bareSummary = { id: 6, title: 'Без деталей' };
    const badPost = { ...summary, id: '5' };
    const badCategory = { name: 'Кейси', count: '2' };
    const reading = readBlogListing({ ...listing, posts: [badPost, summary, bareSummary], categories: [badCategory, categoryCount] });
    expect(reading).toEqual({
      data: { ...listing, posts: [summary, bareSummary], categories: [categoryCount] },
      dropped: [badPost, badCategory],
    });
  });

  it.each(['page', 'pageCount', 'total', 'posts', 'categories'])('reads nothing from a listing without %s', (field) => {
    expect(readBlogListing(withoutField(listing, field))).toBeUndefined();
  });
});
