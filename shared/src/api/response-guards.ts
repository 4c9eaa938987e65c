import type { BlogCategoryCount, BlogListing, BlogPost, BlogPostSummary, Service } from '../contracts/types';

// Run-time checks of the API's answers, so a malformed response is treated as a failed load rather
// than crashing a component. Plain functions, not the TypeBox schemas, so no browser bundle carries
// TypeBox; response-guards.test.ts holds them to the schemas in ../contracts.

type Guard<T> = (value: unknown) => value is T;

const isString = (value: unknown): value is string => typeof value === 'string';
const isInteger = (value: unknown): value is number => Number.isInteger(value);
const isNumberOrNull = (value: unknown): value is number | null => value === null || typeof value === 'number';

/** A field an answer may leave out: absent (or undefined) passes, anything else must pass `guard`. */
function optional<T>(guard: Guard<T>): Guard<T | undefined> {
  return (value: unknown): value is T | undefined => value === undefined || guard(value);
}

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
  id: optional(isInteger),
  title: isString,
  description: isString,
  icon_url: isString,
  features: arrayOf(isString),
  price_from: optional(isNumberOrNull),
});

/** A post's fields, each required: the post page shows them all (as BlogPostSchema says). */
const postFields = {
  id: isInteger,
  title: isString,
  excerpt: isString,
  category: isString,
  image_url: isString,
  created_at: isString,
  author: isString,
};

/** A card needs the id and title; the rest may be absent (as BlogPostSummarySchema says). */
export const isBlogPostSummary = objectOf<BlogPostSummary>({
  id: postFields.id,
  title: postFields.title,
  excerpt: optional(postFields.excerpt),
  category: optional(postFields.category),
  image_url: optional(postFields.image_url),
  created_at: optional(postFields.created_at),
  author: optional(postFields.author),
});

export const isBlogPost = objectOf<BlogPost>({ ...postFields, updated_at: optional(isString), content: isString });

export const isBlogCategoryCount = objectOf<BlogCategoryCount>({ name: isString, count: isInteger });

/**
 * What the apps can show of an answer, and the list items they left out because they were
 * malformed. Undefined: nothing of the answer can be shown (it is not the shape asked for at all).
 */
export interface Reading<T> {
  data: T;
  dropped: unknown[];
}

export type Reader<T> = (value: unknown) => Reading<T> | undefined;

/** An answer that is shown whole or not at all (a post). */
export function readWhole<T>(guard: Guard<T>): Reader<T> {
  return (value) => (guard(value) ? { data: value, dropped: [] } : undefined);
}

/** A list whose malformed items are left out: one bad item must not hide the others. */
export function readListOf<T>(item: Guard<T>): Reader<T[]> {
  return (value) => {
    if (!Array.isArray(value)) return undefined;
    const reading: Reading<T[]> = { data: [], dropped: [] };
    for (const entry of value as unknown[]) {
      if (item(entry)) reading.data.push(entry);
      else reading.dropped.push(entry);
    }
    return reading;
  };
}

const readPostSummaries = readListOf(isBlogPostSummary);
const readCategoryCounts = readListOf(isBlogCategoryCount);

/** A listing page: its numbers must be right; malformed posts or categories in it are left out. */
export const readBlogListing: Reader<BlogListing> = (value) => {
  if (!isRecord(value) || !isInteger(value.page) || !isInteger(value.pageCount) || !isInteger(value.total)) return undefined;
  const posts = readPostSummaries(value.posts);
  const categories = readCategoryCounts(value.categories);
  if (!posts || !categories) return undefined;
  return {
    data: { posts: posts.data, page: value.page, pageCount: value.pageCount, total: value.total, categories: categories.data },
    dropped: [...posts.dropped, ...categories.dropped],
  };
};

export { isString };
export type { Guard };
