import fs from 'node:fs';
import path from 'node:path';
import { Type, type StaticDecode, type TInteger, type TNumber, type TObject } from '@sinclair/typebox';
import { TransformDecodeError, Value } from '@sinclair/typebox/value';

/** The environment as `process.env` holds it. */
export type Env = Record<string, string | undefined>;

/** The monorepo root: this folder sits as deep in api/src (tsx) as in api/dist (compiled). */
export const REPO_ROOT = path.resolve(__dirname, '../../../..');

/**
 * What a variable's decoder throws: the rest of the sentence after the variable's name, which
 * readEnv puts in front, so no message can leave it out.
 */
class InvalidValue extends Error {}

/** Refuses a variable's value; `reason` goes after its name (`must be …, got "…"`). */
export function invalid(reason: string): never {
  throw new InvalidValue(reason);
}

/**
 * One variable: its text (`''` when unset, as readEnv passes it) decoded by `decode`, which refuses
 * a value through `invalid`. Encode is required by TypeBox; configuration is never written back to
 * the environment, so it is only a rough inverse.
 */
export function variable<T>(decode: (value: string) => T) {
  return Type.Transform(Type.String())
    .Decode(decode)
    .Encode((value) => (value === undefined ? '' : String(value)));
}

/** Trimmed text; blank is `fallback`. */
export function text(fallback: string) {
  return variable((value) => value.trim() || fallback);
}

/** Trimmed text; blank is unset. */
export function optionalText() {
  return variable((value) => value.trim() || undefined);
}

/** A path relative to the repo root (like the SQLite file), or absolute. */
export function repoPath(fallback: string) {
  return variable((value) => path.resolve(REPO_ROOT, value.trim() || fallback));
}

/** A number as `Number` reads the text, which `schema` must accept; blank is `fallback`. */
export function numeric(schema: TNumber | TInteger, fallback: number, expected: string) {
  return variable((value) => {
    if (value.trim() === '') return fallback;
    const number = Number(value);
    if (!Value.Check(schema, number)) invalid(`must be ${expected}, got "${value}"`);
    return number;
  });
}

export function integer(fallback: number, minimum: number) {
  return numeric(Type.Integer({ minimum }), fallback, `an integer of at least ${minimum}`);
}

/** One of `choices`, read trimmed and in any case; blank is `fallback`. */
export function oneOf<const Choice extends string>(choices: readonly Choice[], fallback: NoInfer<Choice>, expected: string) {
  const schema = Type.Union(choices.map((choice) => Type.Literal(choice)));
  return variable((value): Choice => {
    const choice = value.trim().toLowerCase() || fallback;
    if (!Value.Check(schema, choice)) invalid(`must be ${expected}, got "${value}"`);
    return choice;
  });
}

/**
 * A variable's text: `NAME` itself, or the contents of the file `NAME_FILE` names (a Docker or
 * Kubernetes secret mounted as a file, so it is never in the environment that `docker inspect`
 * and crash reports show), without its trailing line break. Both set is refused: which one wins
 * would be a guess.
 */
function valueOf(name: string, env: Env): string {
  const direct = env[name] ?? '';
  const file = env[`${name}_FILE`]?.trim();
  if (!file) return direct;
  if (direct.trim() !== '') throw new Error(`${name} and ${name}_FILE are both set: set one of them`);
  try {
    return fs.readFileSync(file, 'utf8').replace(/\r?\n$/, '');
  } catch (error) {
    throw new Error(`${name}_FILE names a file that cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}): ${file}`);
  }
}

/**
 * The variables `schema` names, read from `env` and decoded. A refused value fails with a message
 * that starts with the variable's name; other errors of a decoder pass as they are.
 */
export function readEnv<Schema extends TObject>(schema: Schema, env: Env): StaticDecode<Schema> {
  const values = Object.fromEntries(Object.keys(schema.properties).map((name) => [name, valueOf(name, env)]));
  try {
    return Value.Decode(schema, values);
  } catch (error) {
    if (!(error instanceof TransformDecodeError)) throw error;
    if (error.error instanceof InvalidValue) throw new Error(`${error.path.slice(1)} ${error.error.message}`);
    throw error.error;
  }
}
