import type { BlogCategoryCount, BlogListing, BlogPost, BlogPostSummary, Service } from '../types';

// Run-time checks of the API's answers, so a malformed response is treated as a failed load rather
// than crashing a component. Plain functions, not the TypeBox schemas, so no browser bundle carries
// TypeBox; response-guards.test.ts holds them to the schemas in ../contracts.

type Guard<T> = (value: unknown) => value is T;

const isString = (value: unknown): value is string => typeof value === 'string';
const isInteger = (value: unknown): value is number => Number.isInteger(value);
const isNumberOrNull = (value: unknown): value is number | null => value === null || typeof value === 'number';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A guard for an object whose listed fields each pass their own guard (other fields are ignored). */
function objectOf<T>(fields: { [K in keyof T]-?: Guard<T[K]> }): Guard<T> {
  const entries = Object.entries(fields) as [string, Guard<unknown>][];
  return (value: unknown): value is T => isRecord(value) && entries.every(([key, guard]) => guard(value[key]));
}

export function arrayOf<T>(item: Guard<T>): Guard<T[]> {
  return (value: unknown): value is T[] => Array.isArray(value) && value.every(item);
}

export const isService = objectOf<Service>({
  id: isInteger,
  title: isString,
  description: isString,
  icon_url: isString,
  features: arrayOf(isString),
  price_from: isNumberOrNull,
});

const summaryFields = {
  id: isInteger,
  title: isString,
  excerpt: isString,
  category: isString,
  image_url: isString,
  created_at: isString,
  author: isString,
};

export const isBlogPostSummary = objectOf<BlogPostSummary>(summaryFields);

export const isBlogPost = objectOf<BlogPost>({ ...summaryFields, content: isString });

export const isBlogCategoryCount = objectOf<BlogCategoryCount>({ name: isString, count: isInteger });

export const isBlogListing = objectOf<BlogListing>({
  posts: arrayOf(isBlogPostSummary),
  page: isInteger,
  pageCount: isInteger,
  total: isInteger,
  categories: arrayOf(isBlogCategoryCount),
});

export { isString };
export type { Guard };
