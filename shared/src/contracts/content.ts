import { Type, type Static } from '@sinclair/typebox';
import { BLOG_LIMIT_MAX } from './limits';
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

/** Malformed ids are answered 404 by the handler, like unknown ones, so any string passes here. */
export const BlogPostParamsSchema = Type.Object({ id: Type.String() });

export type Service = Static<typeof ServiceSchema>;
export type BlogPostSummary = Static<typeof BlogPostSummarySchema>;
export type BlogPost = Static<typeof BlogPostSchema>;
export type BlogListQuery = Static<typeof BlogListQuerySchema>;
