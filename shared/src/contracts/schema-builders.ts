import { Kind, Type, TypeRegistry, type TUnsafe } from '@sinclair/typebox';

/**
 * Schema pieces the contracts repeat. Two are plain JSON schema under a custom TypeBox kind
 * (registered below, so TypeBox's own Value.Check understands them too): TypeBox's built-in forms
 * (`anyOf` of `const`s) would change which Ajv errors a bad value raises, and so the API's
 * per-field messages, and would serialize more slowly.
 */

TypeRegistry.Set<{ enum: readonly unknown[] }>(
  'StringEnum',
  (schema, value) => typeof value === 'string' && schema.enum.includes(value),
);
TypeRegistry.Set('NullableNumber', (_schema, value) => value === null || typeof value === 'number');

/** One of `values`, and a string: a number gets the "must be text" message, not "unknown choice". */
export function StringEnum<T extends string>(values: readonly T[]): TUnsafe<T> {
  return Type.Unsafe<T>({ [Kind]: 'StringEnum', type: 'string', enum: [...values] });
}

/** A number or null, as one `type` list. */
export function NullableNumber(): TUnsafe<number | null> {
  return Type.Unsafe<number | null>({ [Kind]: 'NullableNumber', type: ['number', 'null'] });
}

/**
 * A field a person must fill. Strings are trimmed before validation, so `minLength: 1` means
 * "not empty after trimming".
 */
export function RequiredText(maxLength: number) {
  return Type.String({ minLength: 1, maxLength });
}

/** A text field that may be empty. */
export function OptionalText(maxLength: number) {
  return Type.String({ maxLength });
}
