import { APP_NAMES } from '@agency/shared';
import { createHash } from 'node:crypto';
import type { Database } from '../../../src/platform/db/connection';
import {
  createReleaseToken,
  listReleaseTokens,
  parseReleaseTokensSpec,
  provisionReleaseTokens,
  ReleaseTokenError,
  revokeReleaseToken,
  verifyReleaseToken,
} from '../../../src/delivery/release-api/release-tokens';
import { openMigratedTestDatabase, type MigratedTestDatabase } from '../../helpers/database';

// The tokens teams' CI releases with, on a real database (SQLite, then PostgreSQL).

let testDb: MigratedTestDatabase;
let db: Database;

beforeEach(async () => {
  testDb = await openMigratedTestDatabase();
  db = testDb.db;
});

afterEach(() => testDb.close());

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const at = (iso: string) => new Date(iso);
const SECRET = 'a'.repeat(40);
const OTHER_SECRET = 'b'.repeat(40);

async function storedRows() {
  return db.kysely.selectFrom('release_tokens').selectAll().orderBy('name').execute();
}

describe('createReleaseToken', () => {
  it('returns a recognisable random token and stores only its SHA-256', async () => {
    const token = await createReleaseToken(db, { name: 'blog-ci', apps: ['blog', 'home'], now: at('2026-03-04T09:15:00.000Z') });
    expect(token).toMatch(/^rt_blog-ci_[A-Za-z0-9_-]{43}$/);
    const other = await createReleaseToken(db, { name: 'other', apps: ['blog'] });
    expect(other.slice(-43)).not.toBe(token.slice(-43));

    const [row] = await storedRows();
    expect(row).toEqual({
      name: 'blog-ci',
      token_hash: sha256(token),
      apps: JSON.stringify(['blog', 'home']),
      created_at: '2026-03-04T09:15:00.000Z',
      revoked_at: null,
      last_used_at: null,
    });
    const secretPart = token.slice('rt_blog-ci_'.length);
    for (const stored of await storedRows()) expect(JSON.stringify(stored)).not.toContain(secretPart);
  });

  it('refuses names that are not lowercase letters, digits and hyphens', async () => {
    for (const name of ['', 'Blog', '-ci', 'blog_ci', 'blog ci', 'a'.repeat(64), 'ci/../x']) {
      await expect(createReleaseToken(db, { name, apps: ['blog'] })).rejects.toThrow(ReleaseTokenError);
    }
    await expect(createReleaseToken(db, { name: 'Blog', apps: ['blog'] })).rejects.toThrow('Token name "Blog" is not valid');
    expect(await createReleaseToken(db, { name: 'a'.repeat(63), apps: ['blog'] })).toMatch(/^rt_a{63}_/);
  });

  it('refuses no apps and unknown apps, naming the unknown one and the known ones', async () => {
    await expect(createReleaseToken(db, { name: 'ci', apps: [] })).rejects.toThrow(`Name the apps the token may release: ${APP_NAMES.join(', ')}`);
    await expect(createReleaseToken(db, { name: 'ci', apps: ['blog', 'shop'] })).rejects.toThrow(
      `Unknown app "shop": the apps are ${APP_NAMES.join(', ')}`,
    );
    expect(await storedRows()).toEqual([]);
  });

  it('stores each app once', async () => {
    await createReleaseToken(db, { name: 'ci', apps: ['blog', 'blog', 'home'] });
    expect((await listReleaseTokens(db))[0]!.apps).toEqual(['blog', 'home']);
  });

  it('refuses a name in use, and a revoked name, which is never reused', async () => {
    const first = await createReleaseToken(db, { name: 'ci', apps: ['blog'] });
    await expect(createReleaseToken(db, { name: 'ci', apps: ['home'] })).rejects.toThrow('A token named "ci" already exists');
    await revokeReleaseToken(db, 'ci');
    await expect(createReleaseToken(db, { name: 'ci', apps: ['home'] })).rejects.toThrow('A token named "ci" was revoked; names are not reused');
    expect(await storedRows()).toMatchObject([{ name: 'ci', token_hash: sha256(first) }]);
  });

  it('gives a name to exactly one of two people creating it at once', async () => {
    const results = await Promise.allSettled([createReleaseToken(db, { name: 'ci', apps: ['blog'] }), createReleaseToken(db, { name: 'ci', apps: ['home'] })]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(results.find((result) => result.status === 'rejected')).toMatchObject({ reason: expect.any(ReleaseTokenError) });
  });
});

describe('verifyReleaseToken', () => {
  it('knows a token by its text: its name and apps', async () => {
    const token = await createReleaseToken(db, { name: 'ci', apps: ['blog', 'home'] });
    expect(await verifyReleaseToken(db, token)).toEqual({ name: 'ci', apps: ['blog', 'home'] });
  });

  it('accepts no other token, a malformed one or a revoked one', async () => {
    const token = await createReleaseToken(db, { name: 'ci', apps: ['blog'] });
    const other = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const wrong of [other, `${token} `, token.toUpperCase(), '', 'rt_', 'x'.repeat(300), 'ci', `Bearer ${token}`]) {
      expect(await verifyReleaseToken(db, wrong)).toBeUndefined();
    }
    await revokeReleaseToken(db, 'ci');
    expect(await verifyReleaseToken(db, token)).toBeUndefined();
  });

  it('records the last use, at most once a minute', async () => {
    const token = await createReleaseToken(db, { name: 'ci', apps: ['blog'], now: at('2026-03-04T09:00:00.000Z') });
    await verifyReleaseToken(db, token, at('2026-03-04T09:15:00.000Z'));
    await verifyReleaseToken(db, token, at('2026-03-04T09:15:59.000Z'));
    expect((await listReleaseTokens(db))[0]!.lastUsedAt).toBe('2026-03-04T09:15:00.000Z');
    await verifyReleaseToken(db, token, at('2026-03-04T09:16:01.000Z'));
    expect((await listReleaseTokens(db))[0]!.lastUsedAt).toBe('2026-03-04T09:16:01.000Z');
  });
});

describe('listReleaseTokens and revokeReleaseToken', () => {
  it('lists every token by name, revoked ones as revoked', async () => {
    expect(await listReleaseTokens(db)).toEqual([]);
    const token = await createReleaseToken(db, { name: 'home-ci', apps: ['home'], now: at('2026-03-01T08:00:00.000Z') });
    await createReleaseToken(db, { name: 'blog-ci', apps: ['blog'], now: at('2026-03-02T08:00:00.000Z') });
    await verifyReleaseToken(db, token, at('2026-03-03T08:00:00.000Z'));
    await revokeReleaseToken(db, 'blog-ci', at('2026-03-04T08:00:00.000Z'));
    expect(await listReleaseTokens(db)).toEqual([
      { name: 'blog-ci', apps: ['blog'], createdAt: '2026-03-02T08:00:00.000Z', revokedAt: '2026-03-04T08:00:00.000Z' },
      { name: 'home-ci', apps: ['home'], createdAt: '2026-03-01T08:00:00.000Z', lastUsedAt: '2026-03-03T08:00:00.000Z' },
    ]);
  });

  it('refuses to revoke an unknown token or one already revoked, keeping the first revocation', async () => {
    await expect(revokeReleaseToken(db, 'nobody')).rejects.toThrow(new ReleaseTokenError('No token is named "nobody"'));
    await createReleaseToken(db, { name: 'ci', apps: ['blog'] });
    await revokeReleaseToken(db, 'ci', at('2026-03-04T08:00:00.000Z'));
    await expect(revokeReleaseToken(db, 'ci', at('2026-03-05T08:00:00.000Z'))).rejects.toThrow(
      'The token "ci" was already revoked at 2026-03-04T08:00:00.000Z',
    );
    expect((await listReleaseTokens(db))[0]!.revokedAt).toBe('2026-03-04T08:00:00.000Z');
  });
});

describe('provisionReleaseTokens (RELEASE_TOKENS)', () => {
  const LOCAL = 'http://localhost:8080';
  const PRODUCTION = 'https://agency.example';

  it('accepts the tokens it is given, storing only their hashes', async () => {
    const outcome = await provisionReleaseTokens(db, `  blog-ci=blog,home:${SECRET}\n\tforms-ci=forms:${OTHER_SECRET} `, PRODUCTION, at('2026-03-04T09:00:00.000Z'));
    expect(outcome).toEqual({ accepted: ['blog-ci', 'forms-ci'], stillRevoked: [] });
    expect(await verifyReleaseToken(db, SECRET)).toEqual({ name: 'blog-ci', apps: ['blog', 'home'] });
    expect(await verifyReleaseToken(db, OTHER_SECRET)).toEqual({ name: 'forms-ci', apps: ['forms'] });
    const rows = await storedRows();
    expect(rows.map((row) => row.token_hash)).toEqual([sha256(SECRET), sha256(OTHER_SECRET)]);
    expect(JSON.stringify(rows)).not.toContain(SECRET);
  });

  it('upserts by name: a new token or apps replace the old, and a new token lifts a revocation', async () => {
    await provisionReleaseTokens(db, `ci=blog:${SECRET}`, PRODUCTION, at('2026-03-01T00:00:00.000Z'));
    await provisionReleaseTokens(db, `ci=blog,home:${SECRET}`, PRODUCTION);
    expect(await verifyReleaseToken(db, SECRET)).toEqual({ name: 'ci', apps: ['blog', 'home'] });

    await revokeReleaseToken(db, 'ci');
    expect(await provisionReleaseTokens(db, `ci=home:${OTHER_SECRET}`, PRODUCTION)).toEqual({ accepted: ['ci'], stillRevoked: [] });
    expect(await verifyReleaseToken(db, SECRET)).toBeUndefined();
    expect(await verifyReleaseToken(db, OTHER_SECRET)).toEqual({ name: 'ci', apps: ['home'] });
    expect(await listReleaseTokens(db)).toEqual([{ name: 'ci', apps: ['home'], createdAt: '2026-03-01T00:00:00.000Z', lastUsedAt: expect.any(String) }]);
  });

  it('keeps a revoked token revoked when the variable still holds it, and says so', async () => {
    await provisionReleaseTokens(db, `ci=blog:${SECRET}`, PRODUCTION);
    await revokeReleaseToken(db, 'ci');
    expect(await provisionReleaseTokens(db, `ci=blog:${SECRET}`, PRODUCTION)).toEqual({ accepted: [], stillRevoked: ['ci'] });
    expect(await verifyReleaseToken(db, SECRET)).toBeUndefined();
  });

  it('leaves tokens it is not given as they are', async () => {
    const made = await createReleaseToken(db, { name: 'made', apps: ['blog'] });
    await provisionReleaseTokens(db, `ci=home:${SECRET}`, PRODUCTION);
    expect(await provisionReleaseTokens(db, '  ', PRODUCTION)).toEqual({ accepted: [], stillRevoked: [] });
    expect(await verifyReleaseToken(db, made)).toEqual({ name: 'made', apps: ['blog'] });
    expect(await verifyReleaseToken(db, SECRET)).toEqual({ name: 'ci', apps: ['home'] });
  });

  it('refuses a token that is already another name’s, writing nothing', async () => {
    await provisionReleaseTokens(db, `ci=blog:${SECRET}`, PRODUCTION);
    await expect(provisionReleaseTokens(db, `new=home:${OTHER_SECRET} deploy=blog:${SECRET}`, PRODUCTION)).rejects.toThrow(
      'RELEASE_TOKENS: the token of "deploy" is already the token of "ci"; give "deploy" a new token',
    );
    expect((await listReleaseTokens(db)).map((token) => token.name)).toEqual(['ci']);
  });

  it('accepts development tokens on a local site only', async () => {
    for (const site of [LOCAL, 'http://127.0.0.1:3000', 'http://[::1]:8080/']) {
      await expect(provisionReleaseTokens(db, 'ci=blog:dev-blog-token', site)).resolves.toEqual({ accepted: ['ci'], stillRevoked: [] });
    }
    expect(await verifyReleaseToken(db, 'dev-blog-token')).toEqual({ name: 'ci', apps: ['blog'] });

    for (const site of [PRODUCTION, 'http://localhost.agency.example', 'http://192.168.1.10:8080', 'not a url']) {
      const attempt = provisionReleaseTokens(db, `other=home:${SECRET} dev=blog:dev-other-token`, site);
      await expect(attempt).rejects.toThrow(ReleaseTokenError);
      await expect(provisionReleaseTokens(db, 'dev=blog:dev-other-token', site)).rejects.toThrow(
        `RELEASE_TOKENS gives "dev" a development token (dev-…), which only a site on localhost accepts, but SITE_URL is ${site}`,
      );
    }
    expect((await listReleaseTokens(db)).map((token) => token.name)).toEqual(['ci']);
  });

  it('refuses a bad entry, naming it without showing its token, and writes nothing', async () => {
    const refusals: [string, string][] = [
      [`ci=blog:${SECRET} ${SECRET}`, 'RELEASE_TOKENS entry 2 ("…") is not name=app1,app2:token'],
      [`ci-blog-${SECRET}`, 'RELEASE_TOKENS entry 1 ("…") is not name=app1,app2:token'],
      [`ci=blog-${SECRET}`, 'RELEASE_TOKENS entry 1 ("ci=…") is not name=app1,app2:token'],
      [`Blog=blog:${SECRET}`, 'RELEASE_TOKENS entry 1 ("Blog=blog:…"): Token name "Blog" is not valid'],
      [`=blog:${SECRET}`, 'RELEASE_TOKENS entry 1 ("=blog:…"): Token name "" is not valid'],
      [`ci=:${SECRET}`, 'RELEASE_TOKENS entry 1 ("ci=:…"): Name the apps the token may release'],
      [`ci=blog,shop:${SECRET}`, `RELEASE_TOKENS entry 1 ("ci=blog,shop:…"): Unknown app "shop": the apps are ${APP_NAMES.join(', ')}`],
      [`ci=blog,,home:${SECRET}`, 'RELEASE_TOKENS entry 1 ("ci=blog,,home:…"): Unknown app ""'],
      ['ci=blog:', 'RELEASE_TOKENS entry 1 ("ci=blog:…"): the token must be 5 to 256 letters'],
      [`ci=blog:${SECRET}:more`, 'RELEASE_TOKENS entry 1 ("ci=blog:…"): the token must be 5 to 256 letters'],
      [`ci=blog:${'x'.repeat(257)}`, 'RELEASE_TOKENS entry 1 ("ci=blog:…"): the token must be 5 to 256 letters'],
      ['ci=blog:short-secret', 'RELEASE_TOKENS entry 1 ("ci=blog:…"): the token is too short to be a secret: use at least 32 characters'],
      [`ci=blog:${SECRET} ci=home:${OTHER_SECRET}`, 'RELEASE_TOKENS names "ci" twice'],
      [`ci=blog:${SECRET} cd=home:${SECRET}`, 'RELEASE_TOKENS gives "ci" and "cd" the same token; give each its own'],
    ];
    for (const [spec, message] of refusals) {
      let refusal: unknown;
      await provisionReleaseTokens(db, spec, LOCAL).catch((error: unknown) => (refusal = error));
      expect(refusal).toBeInstanceOf(ReleaseTokenError);
      expect((refusal as Error).message).toContain(message);
      expect((refusal as Error).message).not.toContain(SECRET);
    }
    expect(await storedRows()).toEqual([]);
  });

  it('parses an entry into its name, apps and token', () => {
    expect(parseReleaseTokensSpec(`ci=blog,home,blog:${SECRET}\ndev=shell:dev-x`)).toEqual([
      { name: 'ci', apps: ['blog', 'home'], token: SECRET },
      { name: 'dev', apps: ['shell'], token: 'dev-x' },
    ]);
    expect(parseReleaseTokensSpec('')).toEqual([]);
  });
});
