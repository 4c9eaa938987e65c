import { parseArgs } from 'node:util';
import { inertOutput } from './terminal-text';

/**
 * The argument handling the commands share: `node:util`'s parseArgs in strict mode, with its
 * errors turned into one short line each, `--help`/`-h` on every command, and the usage printed
 * to stdout (exit 0) when asked for, or to stderr after the problem (exit 2) on bad usage.
 */

export type OptionSpecs = Record<string, { type: 'string' | 'boolean' }>;

export type ParsedValues<T extends OptionSpecs> = { [K in keyof T]?: T[K]['type'] extends 'string' ? string : boolean };

/** What the user is told, in the command's language. */
export interface ArgMessages {
  unknownOption(flag: string): string;
  needsValue(flag: string): string;
  takesNoValue(flag: string): string;
  givenTwice(flag: string): string;
  unexpected(args: readonly string[]): string;
}

export const ARG_MESSAGES = {
  en: {
    unknownOption: (flag) => `Unknown option ${flag}`,
    needsValue: (flag) => `${flag} needs a value`,
    takesNoValue: (flag) => `${flag} takes no value`,
    givenTwice: (flag) => `${flag} is given twice`,
    unexpected: (args) => `Unexpected arguments: ${args.join(' ')}`,
  },
  uk: {
    unknownOption: (flag) => `Невідомий параметр ${flag}`,
    needsValue: (flag) => `Для ${flag} потрібне значення`,
    takesNoValue: (flag) => `${flag} не приймає значення`,
    givenTwice: (flag) => `${flag} вказано двічі`,
    unexpected: (args) => `Зайві аргументи: ${args.join(' ')}`,
  },
} as const satisfies Record<string, ArgMessages>;

/** Bad usage: the message, then the usage, on stderr; exit code 2. */
export class UsageError extends Error {}

/** `--help` or `-h`: not an error, so the usage goes to stdout with exit code 0. */
export class HelpRequested extends Error {}

const HELP = { help: { type: 'boolean', short: 'h' } } as const;

type Token = NonNullable<ReturnType<typeof parseArgs>['tokens']>[number];

/** The first argument parseArgs's strict mode refuses, said in the command's words. */
function describeProblem(tokens: readonly Token[], options: OptionSpecs, messages: ArgMessages, maxPositionals: number): string | undefined {
  for (const token of tokens) {
    if (token.kind === 'positional' && maxPositionals === 0) return messages.unexpected([token.value]);
    if (token.kind !== 'option') continue;
    const spec = options[token.name];
    if (!spec) return messages.unknownOption(token.rawName);
    if (spec.type === 'boolean' && token.inlineValue) return messages.takesNoValue(token.rawName);
    // Strict mode also refuses `--dist --list`: the next option taken for a value is "ambiguous".
    const optionLike = !token.inlineValue && token.value !== undefined && token.value.length > 1 && token.value.startsWith('-');
    if (spec.type === 'string' && (token.value === undefined || optionLike)) return messages.needsValue(token.rawName);
  }
  return undefined;
}

/**
 * Parses `argv` against `options` (long names, no short forms but `-h`) and at most
 * `maxPositionals` positionals. Throws HelpRequested when help is asked for anywhere before `--`,
 * and UsageError for an unknown option, a missing or unexpected value, an option given twice
 * (parseArgs would silently keep the last) and extra positionals.
 */
export function parseCliArgs<T extends OptionSpecs>(
  argv: readonly string[],
  options: T,
  messages: ArgMessages,
  maxPositionals = 0,
): { values: ParsedValues<T>; positionals: string[] } {
  const config = { args: [...argv], options: { ...options, ...HELP }, allowPositionals: maxPositionals > 0, tokens: true } as const;
  // A lenient pass names the offending argument as data; strict mode's errors carry it only in prose.
  const lenient = parseArgs({ ...config, strict: false, allowPositionals: true }).tokens;
  if (lenient.some((token) => token.kind === 'option' && token.name === 'help')) throw new HelpRequested();

  let parsed;
  try {
    parsed = parseArgs({ ...config, strict: true });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS_')) throw error;
    throw new UsageError(describeProblem(lenient, options, messages, maxPositionals) ?? (error as Error).message);
  }
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    if (seen.has(token.name)) throw new UsageError(messages.givenTwice(token.rawName));
    seen.add(token.name);
    // `--dist=` names no folder, no more than `--dist` alone does.
    if (token.value === '') throw new UsageError(messages.needsValue(token.rawName));
  }
  if (parsed.positionals.length > maxPositionals) throw new UsageError(messages.unexpected(parsed.positionals.slice(maxPositionals)));
  return { values: parsed.values as ParsedValues<T>, positionals: parsed.positionals };
}

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

/** An Io whose lines reach the terminal inert (see terminal-text). */
export function terminalIo(io: Io): Io {
  return { out: (line) => io.out(inertOutput(line)), err: (line) => io.err(inertOutput(line)) };
}

export const processIo: Io = terminalIo({
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});

/** Prints the usage for help (exit code 0) or after a usage error (2); undefined for other errors. */
export function reportUsage(error: unknown, usage: string, io: Io = processIo): 0 | 2 | undefined {
  if (error instanceof HelpRequested) {
    io.out(usage);
    return 0;
  }
  if (error instanceof UsageError) {
    io.err(`${error.message}\n${usage}`);
    return 2;
  }
  return undefined;
}
