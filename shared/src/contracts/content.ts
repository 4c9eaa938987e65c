import { Type, type Static } from '@sinclair/typebox';
import { BLOG_CATEGORY_MAX_LENGTH, BLOG_LIMIT_MAX, BLOG_PAGE_MAX } from './limits';
import { positiveIntegerPattern } from './patterns';
import { NullableNumber } from './schema-builders';

/** Published content the API reads out: services and blog posts. */

export const ServiceSchema = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  description: Type.String(),
  icon_url: Type.String(),
  features: Type.Array(Type.String()),
  /** Starting price in hryvnias; null when the price is individual. */
  price_from: NullableNumber(),
});

export const ServiceListSchema = Type.Array(ServiceSchema);

export const BlogPostSummarySchema = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  excerpt: Type.String(),
  category: Type.String(),
  image_url: Type.String(),
  /** ISO 8601 timestamp. */
  created_at: Type.String(),
  author: Type.String(),
});

export const BlogPostSummaryListSchema = Type.Array(BlogPostSummarySchema);

export const BlogPostSchema = Type.Object({
  ...BlogPostSummarySchema.properties,
  /** Sanitized HTML. */
  content: Type.String(),
});

export const BlogListQuerySchema = Type.Object(
  // Query values are strings (coercion is off): 1..BLOG_LIMIT_MAX without leading zeros.
  { limit: Type.Optional(Type.String({ pattern: positiveIntegerPattern(BLOG_LIMIT_MAX) })) },
  { additionalProperties: false },
);

/**
 * `GET /api/blog/listing`: one page of the listing, optionally of one category. Unlike the plain
 * list, an unknown parameter is refused (400) rather than dropped: a listing address is a page's
 * address too, and a misspelt one must not quietly show something else.
 */
export const BlogListingQuerySchema = Type.Object(
  {
    // 1..BLOG_PAGE_MAX without leading zeros (query values are strings; coercion is off).
    page: Type.Optional(Type.String({ pattern: positiveIntegerPattern(BLOG_PAGE_MAX) })),
    category: Type.Optional(Type.String({ minLength: 1, maxLength: BLOG_CATEGORY_MAX_LENGTH })),
  },
  // A schema, not `false`: Ajv's removeAdditional drops only what `false` forbids, so this refuses.
  { additionalProperties: Type.Never() },
);

/** A published category with how many published posts it holds. */
export const BlogCategoryCountSchema = Type.Object({ name: Type.String(), count: Type.Integer() });

export const BlogListingSchema = Type.Object({
  /** The page's posts, newest first. */
  posts: BlogPostSummaryListSchema,
  page: Type.Integer(),
  /** At least 1: the first page of an empty list exists (and is empty). */
  pageCount: Type.Integer(),
  /** Posts in the filtered list (all pages). */
  total: Type.Integer(),
  /** Every published category with its count, whatever the filter. */
  categories: Type.Array(BlogCategoryCountSchema),
});

/** Malformed ids are answered 404 by the handler, like unknown ones, so any string passes here. */
export const BlogPostParamsSchema = Type.Object({ id: Type.String() });

export type Service = Static<typeof ServiceSchema>;
export type BlogPostSummary = Static<typeof BlogPostSummarySchema>;
export type BlogPost = Static<typeof BlogPostSchema>;
export type BlogListQuery = Static<typeof BlogListQuerySchema>;
export type BlogListingQuery = Static<typeof BlogListingQuerySchema>;
export type BlogCategoryCount = Static<typeof BlogCategoryCountSchema>;
export type BlogListing = Static<typeof BlogListingSchema>;
