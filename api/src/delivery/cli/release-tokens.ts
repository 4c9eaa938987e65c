import type { Db } from '../../platform/db/connection';
import { checkTokenApps, checkTokenName, createReleaseToken, listReleaseTokens, ReleaseTokenError, type ReleaseTokenInfo, revokeReleaseToken } from '../release-api/release-tokens';
import { ARG_MESSAGES, parseCliArgs, reportUsage, UsageError, type Io } from '../../platform/cli/parse-cli-args';
import { inertText } from '../../platform/cli/terminal-text';

/**
 * The tokens teams' CI releases with (npm run release -- tokens …):
 *   tokens create <name> --apps <app,…>   make one; prints it once
 *   tokens list                           every token, revoked ones too, never a secret
 *   tokens revoke <name>                  stop accepting one at once
 * Exit codes: 0 done (or help shown), 1 refused or failed, 2 bad usage.
 */

export const TOKENS_USAGE = [
  'Usage: npm run release -- tokens create <name> --apps <app,app>',
  '         make a token for CI that may release those apps; it is printed once, only its hash is kept',
  '       npm run release -- tokens list            list the tokens: apps, created, last used, revoked',
  '       npm run release -- tokens revoke <name>   stop accepting the token at once (it stays listed)',
  '       npm run release -- tokens --help          print this help',
  'A name is 1 to 63 lowercase letters, digits and hyphens (e.g. blog-ci); names are never reused.',
].join('\n');

type TokensAction = { kind: 'create'; name: string; apps: string[] } | { kind: 'list' } | { kind: 'revoke'; name: string };

const OPTIONS = { apps: { type: 'string' } } as const;

/** A check of the token module, failed on the command line: bad usage, not a refusal. */
function asUsage<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    throw error instanceof ReleaseTokenError ? new UsageError(error.message) : error;
  }
}

/** The arguments after `tokens`. */
export function parseTokensArgs(argv: readonly string[]): TokensAction {
  const { values, positionals } = parseCliArgs(argv, OPTIONS, ARG_MESSAGES.en, 2);
  const [command, name] = positionals;
  if (command === undefined) throw new UsageError('Choose one of create, list, revoke');
  if (command !== 'create' && command !== 'list' && command !== 'revoke') throw new UsageError(`Unknown tokens command "${command}": create, list or revoke`);
  if (command !== 'create' && values.apps !== undefined) throw new UsageError('--apps only applies to create');
  if (command === 'list') {
    if (name !== undefined) throw new UsageError(ARG_MESSAGES.en.unexpected([name]));
    return { kind: 'list' };
  }
  if (name === undefined) throw new UsageError(`Name the token to ${command}`);
  asUsage(() => checkTokenName(name));
  if (command === 'revoke') return { kind: 'revoke', name };
  if (values.apps === undefined) throw new UsageError('Name the apps the token may release: --apps <app,app>');
  const apps = asUsage(() => checkTokenApps(values.apps!.split(',').map((app) => app.trim())));
  return { kind: 'create', name, apps };
}

/** `2026-03-04T09:15:27.120Z` → `2026-03-04 09:15Z`: last use is kept to the minute anyway. */
const minute = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}Z`;

/** `tokens list`: a table, its columns as wide as their longest value. */
export function formatTokenList(tokens: readonly ReleaseTokenInfo[]): string[] {
  if (tokens.length === 0) return ['No release tokens. Make one: npm run release -- tokens create <name> --apps <app,app>'];
  const header = ['NAME', 'APPS', 'CREATED', 'LAST USED', 'REVOKED'];
  const rows = tokens.map((token) => [
    inertText(token.name),
    inertText(token.apps.join(',')),
    minute(token.createdAt),
    token.lastUsedAt ? minute(token.lastUsedAt) : 'never',
    token.revokedAt ? minute(token.revokedAt) : '-',
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd();
  return [line(header), ...rows.map(line)];
}

/** Runs `npm run release -- tokens …` (`argv` is what follows `tokens`); resolves with the exit code. */
export async function runReleaseTokens(argv: readonly string[], db: Db, io: Io): Promise<number> {
  try {
    const action = parseTokensArgs(argv);
    if (action.kind === 'list') {
      formatTokenList(await listReleaseTokens(db)).forEach((line) => io.out(line));
    } else if (action.kind === 'revoke') {
      await revokeReleaseToken(db, action.name);
      io.out(`Revoked the token "${action.name}": it is refused from now on.`);
    } else {
      const token = await createReleaseToken(db, { name: action.name, apps: action.apps });
      io.out(`Created the token "${action.name}", which may release ${action.apps.join(', ')}:`);
      io.out('');
      io.out(`  ${token}`);
      io.out('');
      io.out('It is shown only once: store it now as a secret of your CI. Only its hash is kept;');
      io.out(`if it is lost, revoke it (npm run release -- tokens revoke ${action.name}) and make another.`);
    }
    return 0;
  } catch (error) {
    const usageCode = reportUsage(error, TOKENS_USAGE, io);
    if (usageCode !== undefined) return usageCode;
    io.err(error instanceof ReleaseTokenError ? error.message : `Release tokens failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
