import { Type, type Static } from '@sinclair/typebox';
import {
  ARTICLE_OWNERS,
  ARTICLE_REVISION_KINDS,
  ARTICLE_STATES,
  type ArticleOwner,
  type ArticleRevisionKind,
  type ArticleState,
} from './article-constants';
import { ApiErrorBodySchema } from './errors';
import { ARTICLE_LIMITS } from './limits';
import { SLUG_PATTERN } from './patterns';
import { StringEnum } from './schema-builders';

/**
 * The console's articles (`/api/staff/articles`, editors and admins). A working copy may be
 * incomplete (a draft being written); publishing asks for every field. Bodies are closed objects.
 */

const Id = Type.Integer({ minimum: 1 });
const IdText = Type.String({ pattern: '^[1-9][0-9]{0,8}$' });
const IsoTime = Type.String();
const Version = Type.Integer({ minimum: 1 });

/** A cover or an inline image: an image the site serves (uploaded through the console or prepared from a file). */
const MEDIA_URL = '/media/[A-Za-z0-9][A-Za-z0-9._-]*(?:/[A-Za-z0-9][A-Za-z0-9._-]*)*';
export const MEDIA_URL_PATTERN = `^${MEDIA_URL}$`;

export const ArticleSlugSchema = Type.String({ minLength: 1, maxLength: ARTICLE_LIMITS.slug, pattern: SLUG_PATTERN });

/** What an editor writes; empty fields are allowed in a working copy. */
export const ArticleFieldsSchema = Type.Object({
  title: Type.String({ maxLength: ARTICLE_LIMITS.title }),
  category: Type.String({ maxLength: ARTICLE_LIMITS.category }),
  excerpt: Type.String({ maxLength: ARTICLE_LIMITS.excerpt }),
  author: Type.String({ maxLength: ARTICLE_LIMITS.author }),
  /** `''` while there is none. */
  cover: Type.String({ maxLength: ARTICLE_LIMITS.cover, pattern: `^(?:${MEDIA_URL})?$` }),
  markdown: Type.String({ maxLength: ARTICLE_LIMITS.markdown }),
});
export type ArticleFields = Static<typeof ArticleFieldsSchema>;

/** What the preview renders: the fields on the editor's screen, saved or not. */
export const ArticlePreviewBodySchema = Type.Object(ArticleFieldsSchema.properties, { additionalProperties: false });

/** A new article: its title makes its slug unless one is given. */
export const ArticleCreateBodySchema = Type.Object(
  {
    ...ArticleFieldsSchema.properties,
    title: Type.String({ minLength: 1, maxLength: ARTICLE_LIMITS.title }),
    slug: Type.Optional(ArticleSlugSchema),
  },
  { additionalProperties: false },
);
export type ArticleCreate = Static<typeof ArticleCreateBodySchema>;

/** A save of the working copy, made from `version`: refused (409) when the article moved on since. */
export const ArticleSaveBodySchema = Type.Object(
  {
    version: Version,
    /** A save the editor made on its own: it amends the same person's last autosave revision. */
    autosave: Type.Optional(Type.Boolean()),
    slug: ArticleSlugSchema,
    ...ArticleFieldsSchema.properties,
  },
  { additionalProperties: false },
);
export type ArticleSave = Static<typeof ArticleSaveBodySchema>;

/** Publish, unpublish or restore, acting on the version the editor sees. */
export const ArticleVersionBodySchema = Type.Object({ version: Version }, { additionalProperties: false });
export type ArticleVersionBody = Static<typeof ArticleVersionBodySchema>;

/** A publication at a moment (ISO 8601 with its offset; the console sends Kyiv time). */
export const ArticleScheduleBodySchema = Type.Object({ version: Version, publishAt: Type.String({ format: 'date-time' }) }, { additionalProperties: false });
export type ArticleSchedule = Static<typeof ArticleScheduleBodySchema>;

export const ArticleListQuerySchema = Type.Object({ q: Type.Optional(Type.String({ minLength: 1, maxLength: ARTICLE_LIMITS.title })) }, { additionalProperties: false });
export const ArticleRevisionParamsSchema = Type.Object({ id: IdText, revisionId: IdText });

export const ArticleSummarySchema = Type.Object({
  id: Id,
  slug: Type.String(),
  title: Type.String(),
  state: StringEnum<ArticleState>(ARTICLE_STATES),
  owner: StringEnum<ArticleOwner>(ARTICLE_OWNERS),
  /** When a scheduled article goes live. */
  publishAt: Type.Union([IsoTime, Type.Null()]),
  /** Saved changes visitors do not see yet (a published article edited since). */
  unpublishedChanges: Type.Boolean(),
  updatedAt: IsoTime,
  /** Who saved last; null for a file's article. */
  updatedBy: Type.Union([Type.String(), Type.Null()]),
});
export type ArticleSummary = Static<typeof ArticleSummarySchema>;
export const ArticleListSchema = Type.Array(ArticleSummarySchema);

export const ArticleDetailSchema = Type.Object({
  ...ArticleSummarySchema.properties,
  ...ArticleFieldsSchema.properties,
  /** 0 for a file's article: it has no working copy until the console takes it over. */
  version: Type.Integer({ minimum: 0 }),
  /** When it first went live: the date visitors see. */
  publishedAt: Type.Union([IsoTime, Type.Null()]),
});
export type ArticleDetail = Static<typeof ArticleDetailSchema>;

export const ArticleConflictSchema = Type.Object({
  error: Type.Object({ code: Type.Literal('ARTICLE_CHANGED'), message: Type.String() }),
  current: ArticleDetailSchema,
});
export type ArticleConflict = Static<typeof ArticleConflictSchema>;
/** A 409 of an article route: the article moved on (with what it is now), or another refusal (a taken slug, a file's article). */
export const ArticleRefusalSchema = Type.Union([ArticleConflictSchema, ApiErrorBodySchema]);

export const ArticleRevisionSummarySchema = Type.Object({
  id: Id,
  version: Type.Integer(),
  at: IsoTime,
  actor: Type.String(),
  kind: StringEnum<ArticleRevisionKind>(ARTICLE_REVISION_KINDS),
  /** The revision a restore brought back. */
  restoredFrom: Type.Union([Id, Type.Null()]),
});
export type ArticleRevisionSummary = Static<typeof ArticleRevisionSummarySchema>;
export const ArticleRevisionListSchema = Type.Array(ArticleRevisionSummarySchema);

export const ArticleRevisionSchema = Type.Object({ ...ArticleRevisionSummarySchema.properties, slug: Type.String(), ...ArticleFieldsSchema.properties });
export type ArticleRevision = Static<typeof ArticleRevisionSchema>;

/** `POST /api/staff/articles/:id/images?use=`: the image's bytes are the body (a JPEG, PNG or WebP, by content). */
export const ImageUploadQuerySchema = Type.Object({ use: StringEnum<'cover' | 'inline'>(['cover', 'inline']) }, { additionalProperties: false });
export const UploadedImageSchema = Type.Object({ url: Type.String(), width: Type.Integer(), height: Type.Integer() });
export type UploadedImage = Static<typeof UploadedImageSchema>;
