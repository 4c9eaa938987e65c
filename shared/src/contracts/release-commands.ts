import { Type, type Static } from '@sinclair/typebox';

/** A release id as the commands take it (`<version>-<revision>-<stamp>`; checked by the API). */
export const ReleaseIdSchema = Type.String({ minLength: 1, maxLength: 200 });

const ExpectedRelease = Type.Union([ReleaseIdSchema, Type.Null()]);

/**
 * The state a change of an app's releases acts on, as its caller last saw it: the app's revision
 * (every change moves it), or both the release it expects as current and as candidate (`null`:
 * none), so that whatever the command acts on is named. Each named one is checked in the
 * transaction that makes the change, so a change decided on a state that has moved on (another
 * command, release health, a retry of the same command after a lost answer) is refused with what
 * changed, and nothing changes.
 */
export const ReleaseExpectationSchema = Type.Union([
  Type.Object({ revision: Type.Integer({ minimum: 0 }), current: Type.Optional(ExpectedRelease), candidate: Type.Optional(ExpectedRelease) }, { additionalProperties: false }),
  Type.Object({ current: ExpectedRelease, candidate: ExpectedRelease }, { additionalProperties: false }),
]);
export type ReleaseExpectation = Static<typeof ReleaseExpectationSchema>;
