import { Type, type Static } from '@sinclair/typebox';
import { MEDIA_URL_PATTERN } from './articles';
import { ApiErrorBodySchema } from './errors';
import { SERVICE_LIMITS } from './limits';
import { SLUG_PATTERN } from './patterns';

/**
 * Services in the staff console (`/api/staff/services`, editors and admins). What visitors get
 * (`GET /api/services`) does not change: published services, in their order. Bodies are closed.
 */

const Id = Type.Integer({ minimum: 1 });
const IsoTime = Type.String();
const Version = Type.Integer({ minimum: 1 });
const Text = (maxLength: number) => Type.String({ minLength: 1, maxLength });

/** What an editor writes; an empty price is `null` (no price line on the card). */
export const ServiceFieldsSchema = Type.Object({
  title: Text(SERVICE_LIMITS.title),
  description: Text(SERVICE_LIMITS.description),
  icon: Type.String({ maxLength: 500, pattern: MEDIA_URL_PATTERN }),
  features: Type.Array(Text(SERVICE_LIMITS.feature), { maxItems: SERVICE_LIMITS.features }),
  priceFrom: Type.Union([Type.Integer({ minimum: 1, maximum: SERVICE_LIMITS.priceFrom }), Type.Null()]),
});
export type ServiceFields = Static<typeof ServiceFieldsSchema>;

export const ServiceCreateBodySchema = Type.Object(
  { ...ServiceFieldsSchema.properties, slug: Type.Optional(Type.String({ minLength: 1, maxLength: SERVICE_LIMITS.slug, pattern: SLUG_PATTERN })) },
  { additionalProperties: false },
);
export type ServiceCreate = Static<typeof ServiceCreateBodySchema>;

/** A change made from `version`: refused (409) when the service moved on since. */
export const ServiceSaveBodySchema = Type.Object({ version: Version, ...ServiceFieldsSchema.properties }, { additionalProperties: false });
export type ServiceSave = Static<typeof ServiceSaveBodySchema>;

export const ServiceVersionBodySchema = Type.Object({ version: Version }, { additionalProperties: false });

/** The whole display order, every service once: refused (409) when the list changed meanwhile. */
export const ServiceOrderBodySchema = Type.Object({ ids: Type.Array(Id, { minItems: 1, maxItems: 200, uniqueItems: true }) }, { additionalProperties: false });

export const StaffServiceSchema = Type.Object({
  id: Id,
  slug: Type.String(),
  ...ServiceFieldsSchema.properties,
  published: Type.Boolean(),
  version: Type.Integer(),
  updatedAt: Type.Union([IsoTime, Type.Null()]),
  updatedBy: Type.Union([Type.String(), Type.Null()]),
});
export type StaffService = Static<typeof StaffServiceSchema>;
export const StaffServiceListSchema = Type.Array(StaffServiceSchema);

export const ServiceConflictSchema = Type.Object({
  error: Type.Object({ code: Type.Literal('SERVICE_CHANGED'), message: Type.String() }),
  current: StaffServiceSchema,
});
export type ServiceConflict = Static<typeof ServiceConflictSchema>;
/** A 409 of a service route: it moved on (with what it is now), or another refusal (a taken slug, an order of another list). */
export const ServiceRefusalSchema = Type.Union([ServiceConflictSchema, ApiErrorBodySchema]);

export const ServiceIconSchema = Type.Object({ url: Type.String() });
