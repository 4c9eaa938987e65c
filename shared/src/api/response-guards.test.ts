import { Value } from '@sinclair/typebox/value';
import type { TObject } from '@sinclair/typebox';
import { BlogCategoryCountSchema, BlogListingSchema, BlogPostSchema, BlogPostSummarySchema, ServiceSchema } from '../contracts/content';
import { isBlogCategoryCount, isBlogListing, isBlogPost, isBlogPostSummary, isService, type Guard } from './response-guards';

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
const post = { ...summary, content: '<p>Текст</p>' };
const categoryCount = { name: 'Кейси', count: 2 };
const listing = { posts: [summary], page: 1, pageCount: 1, total: 1, categories: [categoryCount] };

// Each guard must accept what its schema accepts and reject an answer missing, or mistyping, any
// field the schema requires: the guards are the browser's copy of the contract.
describe.each<[string, Guard<unknown>, TObject, Record<string, unknown>]>([
  ['isService', isService, ServiceSchema, service],
  ['isBlogPostSummary', isBlogPostSummary, BlogPostSummarySchema, summary],
  ['isBlogPost', isBlogPost, BlogPostSchema, post],
  ['isBlogCategoryCount', isBlogCategoryCount, BlogCategoryCountSchema, categoryCount],
  ['isBlogListing', isBlogListing, BlogListingSchema, listing],
])('%s', (_name, guard, schema, valid) => {
  it('accepts a valid answer, as the schema does', () => {
    expect(Value.Check(schema, valid)).toBe(true);
    expect(guard(valid)).toBe(true);
  });

  it.each(schema.required ?? [])('rejects an answer without %s', (field) => {
    const { [field]: _dropped, ...rest } = valid;
    expect(Value.Check(schema, rest)).toBe(false);
    expect(guard(rest)).toBe(false);
  });

  it.each(Object.keys(schema.properties))('rejects an object as %s', (field) => {
    const broken = { ...valid, [field]: { nested: true } };
    expect(Value.Check(schema, broken)).toBe(false);
    expect(guard(broken)).toBe(false);
  });

  it('rejects what is not an object', () => {
    for (const value of [null, undefined, 'text', 3, [valid]]) expect(guard(value)).toBe(false);
  });
});

it('isService takes an individual price (null) but not a price as text', () => {
  expect(isService({ ...service, price_from: null })).toBe(true);
  expect(isService({ ...service, price_from: '12000' })).toBe(false);
});

it('isBlogListing checks every post and category inside it, as the schema does', () => {
  for (const broken of [
    { ...listing, posts: [{ ...summary, id: '5' }] },
    { ...listing, categories: [{ name: 'Кейси', count: '2' }] },
  ]) {
    expect(Value.Check(BlogListingSchema, broken)).toBe(false);
    expect(isBlogListing(broken)).toBe(false);
  }
});
