import { Type, type Static } from '@sinclair/typebox';
import { BLOG_CATEGORY_MAX_LENGTH, BLOG_LIMIT_MAX, BLOG_PAGE_MAX } from './limits';
import { positiveIntegerPattern } from './patterns';
import { NullableNumber } from './schema-builders';

/** Published content the API reads out: services and blog posts. */

/**
 * A service as the home page shows it. `id` is not part of a service's published shape: a client
 * keys by it when it is there. The price is shown only when `price_from` is a number; absent and
 * null both mean an individual price. This API always sends both.
 */
export const ServiceSchema = Type.Object({
  id: Type.Optional(Type.Integer()),
  title: Type.String(),
  description: Type.String(),
  icon_url: Type.String(),
  features: Type.Array(Type.String()),
  /** Starting price in hryvnias. */
  price_from: Type.Optional(NullableNumber()),
});

export const ServiceListSchema = Type.Array(ServiceSchema);

/** What a post has: the post page shows all of it. */
const BlogPostFields = {
  id: Type.Integer(),
  title: Type.String(),
  excerpt: Type.String(),
  category: Type.String(),
  image_url: Type.String(),
  /** ISO 8601 timestamp. */
  created_at: Type.String(),
  author: Type.String(),
};

/**
 * A post in a list, drawn as a card. A card needs the id (its link) and the title; it shows the
 * rest when it is there, so a post missing one of them still shows. This API always sends all.
 */
export const BlogPostSummarySchema = Type.Object({
  id: BlogPostFields.id,
  title: BlogPostFields.title,
  excerpt: Type.Optional(BlogPostFields.excerpt),
  category: Type.Optional(BlogPostFields.category),
  image_url: Type.Optional(BlogPostFields.image_url),
  created_at: Type.Optional(BlogPostFields.created_at),
  author: Type.Optional(BlogPostFields.author),
});

export const BlogPostSummaryListSchema = Type.Array(BlogPostSummarySchema);

export const BlogPostSchema = Type.Object({
  ...BlogPostFields,
  /** ISO 8601 timestamp of the last change; absent means never changed since `created_at`. */
  updated_at: Type.Optional(Type.String()),
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
