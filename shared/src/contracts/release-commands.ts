import { Type, type Static } from '@sinclair/typebox';

/** A release id as the commands take it (`<version>-<revision>-<stamp>`; checked by the API). */
export const ReleaseIdSchema = Type.String({ minLength: 1, maxLength: 200 });

/**
 * The state a change of an app's releases acts on, as its caller last saw it: the app's revision
 * (every change moves it), or the release it expects as current or as candidate (`null`: none).
 * At least one is named; each named one is checked in the transaction that makes the change, so a
 * change decided on a state that has moved on (another command, release health, a retry of the
 * same command after a lost answer) is refused with what changed, and nothing changes.
 */
export const ReleaseExpectationSchema = Type.Object(
  {
    revision: Type.Optional(Type.Integer({ minimum: 0 })),
    current: Type.Optional(Type.Union([ReleaseIdSchema, Type.Null()])),
    candidate: Type.Optional(Type.Union([ReleaseIdSchema, Type.Null()])),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type ReleaseExpectation = Static<typeof ReleaseExpectationSchema>;
