import { APP_NAMES } from '@agency/shared';
import { createHash } from 'node:crypto';
import { formatTokenList, parseTokensArgs, runReleaseTokens } from '../../../src/delivery/cli/release-tokens';
import type { Database } from '../../../src/platform/db/connection';
import { revokeReleaseToken, verifyReleaseToken } from '../../../src/delivery/release-api/release-tokens';
import { openMigratedTestDatabase, type MigratedTestDatabase } from '../../helpers/database';

// npm run release -- tokens …, run in-process on a real database (SQLite, then PostgreSQL).

let testDb: MigratedTestDatabase;
let db: Database;

beforeEach(async () => {
  testDb = await openMigratedTestDatabase();
  db = testDb.db;
});

afterEach(() => testDb.close());

interface Run {
  code: number;
  stdout: string[];
  stderr: string[];
}

async function tokens(line: string): Promise<Run> {
  const run: Run = { code: -1, stdout: [], stderr: [] };
  run.code = await runReleaseTokens(line.split(' ').filter(Boolean), db, { out: (text) => run.stdout.push(text), err: (text) => run.stderr.push(text) });
  return run;
}

const tokenIn = (run: Run) => run.stdout.map((line) => line.trim()).find((line) => line.startsWith('rt_')) ?? '';

describe('tokens create', () => {
  it('prints the token once, saying so, and stores only its hash', async () => {
    const run = await tokens('create blog-ci --apps blog,home');
    expect(run).toMatchObject({ code: 0, stderr: [] });
    const token = tokenIn(run);
    expect(token).toMatch(/^rt_blog-ci_[A-Za-z0-9_-]{43}$/);
    expect(run.stdout.filter((line) => line.includes(token))).toHaveLength(1);
    expect(run.stdout.join('\n')).toContain('Created the token "blog-ci", which may release blog, home:');
    expect(run.stdout.join('\n')).toContain('It is shown only once');

    const rows = await db.kysely.selectFrom('release_tokens').selectAll().execute();
    expect(rows).toMatchObject([{ name: 'blog-ci', token_hash: createHash('sha256').update(token).digest('hex') }]);
    expect(JSON.stringify(rows)).not.toContain(token.slice(-43));
    expect(await verifyReleaseToken(db, token)).toEqual({ name: 'blog-ci', apps: ['blog', 'home'] });

    const list = await tokens('list');
    expect(list.stdout.join('\n')).not.toContain(token.slice(-43));
  });

  it('refuses a name in use or revoked (exit 1, no usage)', async () => {
    await tokens('create ci --apps blog');
    const taken = await tokens('create ci --apps home');
    expect(taken).toEqual({ code: 1, stdout: [], stderr: [expect.stringContaining('A token named "ci" already exists')] });
    await revokeReleaseToken(db, 'ci');
    const revoked = await tokens('create ci --apps home');
    expect(revoked).toEqual({ code: 1, stdout: [], stderr: [expect.stringContaining('was revoked; names are not reused, so choose another name')] });
  });

  it.each([
    ['create', 'Name the token to create'],
    ['create ci', 'Name the apps the token may release: --apps <app,app>'],
    ['create ci --apps', '--apps needs a value'],
    ['create ci --apps blog,shop', `Unknown app "shop": the apps are ${APP_NAMES.join(', ')}`],
    ['create Blog_CI --apps blog', 'Token name "Blog_CI" is not valid'],
    ['create ci extra --apps blog', 'Unexpected arguments: extra'],
    ['create ci --apps blog --apps home', '--apps is given twice'],
    ['create ci --app blog', 'Unknown option --app'],
  ])('refuses "%s" as bad usage (exit 2, then the usage)', async (line, message) => {
    const run = await tokens(line);
    expect(run).toMatchObject({ code: 2, stdout: [] });
    expect(run.stderr).toHaveLength(1);
    expect(run.stderr[0]).toContain(message);
    expect(run.stderr[0]).toContain('Usage: npm run release -- tokens create <name> --apps <app,app>');
    expect(await db.kysely.selectFrom('release_tokens').selectAll().execute()).toEqual([]);
  });
});

describe('tokens list', () => {
  it('says when there are none', async () => {
    expect(await tokens('list')).toEqual({ code: 0, stdout: [expect.stringMatching(/^No release tokens\. Make one: npm run release -- tokens create/)], stderr: [] });
  });

  it('prints a table of every token, revoked ones too', async () => {
    const made = tokenIn(await tokens('create home-ci --apps home'));
    await tokens('create blog-ci --apps blog,shell');
    await verifyReleaseToken(db, made, new Date('2026-03-04T09:15:27.120Z'));
    await revokeReleaseToken(db, 'blog-ci', new Date('2026-03-05T10:00:00.000Z'));
    const run = await tokens('list');
    expect(run).toMatchObject({ code: 0, stderr: [] });
    const [header, blog, home] = run.stdout;
    expect(run.stdout).toHaveLength(3);
    expect(header).toMatch(/^NAME +APPS +CREATED +LAST USED +REVOKED$/);
    expect(blog).toMatch(/^blog-ci +blog,shell +\d{4}-\d\d-\d\d \d\d:\d\dZ +never +2026-03-05 10:00Z$/);
    expect(home).toMatch(/^home-ci +home +\d{4}-\d\d-\d\d \d\d:\d\dZ +2026-03-04 09:15Z +-$/);
    // The columns line up.
    expect(blog!.indexOf('blog,shell')).toBe(header!.indexOf('APPS'));
    expect(home!.indexOf('2026-03-04 09:15Z')).toBe(header!.indexOf('LAST USED'));
  });

  it('takes no name or apps', async () => {
    expect(await tokens('list ci')).toMatchObject({ code: 2, stderr: [expect.stringContaining('Unexpected arguments: ci')] });
    expect(await tokens('list --apps blog')).toMatchObject({ code: 2, stderr: [expect.stringContaining('--apps only applies to create')] });
  });

  it('lays out any values', () => {
    expect(formatTokenList([{ name: 'a', apps: ['blog'], createdAt: '2026-01-02T03:04:05.000Z' }])).toEqual([
      'NAME  APPS  CREATED            LAST USED  REVOKED',
      'a     blog  2026-01-02 03:04Z  never      -',
    ]);
  });
});

describe('tokens revoke', () => {
  it('revokes a token at once', async () => {
    const token = tokenIn(await tokens('create ci --apps blog'));
    expect(await tokens('revoke ci')).toEqual({ code: 0, stdout: ['Revoked the token "ci": it is refused from now on.'], stderr: [] });
    expect(await verifyReleaseToken(db, token)).toBeUndefined();
  });

  it('refuses an unknown token or one already revoked (exit 1)', async () => {
    expect(await tokens('revoke nobody')).toEqual({ code: 1, stdout: [], stderr: ['No token is named "nobody"'] });
    await tokens('create ci --apps blog');
    await tokens('revoke ci');
    expect(await tokens('revoke ci')).toEqual({ code: 1, stdout: [], stderr: [expect.stringMatching(/^The token "ci" was already revoked at /)] });
  });

  it('needs a name and takes no apps', async () => {
    expect(await tokens('revoke')).toMatchObject({ code: 2, stderr: [expect.stringContaining('Name the token to revoke')] });
    expect(await tokens('revoke ci --apps blog')).toMatchObject({ code: 2, stderr: [expect.stringContaining('--apps only applies to create')] });
  });
});

describe('the tokens command', () => {
  it.each(['--help', 'create -h', 'list --help'])('prints the usage to stdout for "%s", exit code 0', async (line) => {
    const run = await tokens(line);
    expect(run).toMatchObject({ code: 0, stderr: [] });
    expect(run.stdout.join('\n')).toMatch(/^Usage: npm run release -- tokens create <name> --apps <app,app>$/m);
  });

  it('needs a known subcommand', async () => {
    expect(await tokens('')).toMatchObject({ code: 2, stderr: [expect.stringContaining('Choose one of create, list, revoke')] });
    expect(await tokens('rotate ci')).toMatchObject({ code: 2, stderr: [expect.stringContaining('Unknown tokens command "rotate": create, list or revoke')] });
  });

  it('parses the arguments after "tokens"', () => {
    expect(parseTokensArgs(['create', 'ci', '--apps', ' blog , home,blog'])).toEqual({ kind: 'create', name: 'ci', apps: ['blog', 'home'] });
    expect(parseTokensArgs(['list'])).toEqual({ kind: 'list' });
    expect(parseTokensArgs(['revoke', 'ci'])).toEqual({ kind: 'revoke', name: 'ci' });
  });

  it('reports a database failure as a failure (exit 1)', async () => {
    await db.destroy(); // testDb.close() in afterEach copes: destroy() runs only once.
    const run = await tokens('list');
    expect(run).toMatchObject({ code: 1, stdout: [] });
    expect(run.stderr[0]).toMatch(/^Release tokens failed: /);
  });
});
