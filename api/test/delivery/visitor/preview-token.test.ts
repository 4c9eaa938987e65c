import { createHmac } from 'node:crypto';
import { PREVIEW_TOKEN_HOURS } from '@agency/shared';
import { createDatabase, type Database } from '../../../src/platform/db/connection';
import { migrateToLatest } from '../../../src/platform/db/migrate';
import { loadPreviewSecret, previewUrl, signPreviewToken, verifyPreviewToken } from '../../../src/delivery/visitor/preview-token';
import { countRows, createTestDatabase, type TestDatabase } from '../../helpers/database';

const SECRET = 'a-secret-of-at-least-16-chars';
const NOW = Date.parse('2026-11-24T10:00:00Z');
const HOUR = 3_600_000;

describe('preview tokens', () => {
  const token = signPreviewToken({ app: 'blog', release: '1.0.0-abc1234-20261124T095900Z' }, SECRET, NOW);

  it('name the app and release, valid for 24 hours', () => {
    expect(verifyPreviewToken(token, SECRET, NOW + HOUR)).toEqual({
      valid: true,
      app: 'blog',
      release: '1.0.0-abc1234-20261124T095900Z',
      expiresAt: NOW + PREVIEW_TOKEN_HOURS * HOUR,
    });
    expect(verifyPreviewToken(token, SECRET, NOW + PREVIEW_TOKEN_HOURS * HOUR)).toEqual({ valid: false, reason: 'expired' });
  });

  it('are invalid when signed with another secret, altered, truncated or not tokens at all', () => {
    expect(verifyPreviewToken(token, 'another-secret-of-16-chars', NOW)).toEqual({ valid: false, reason: 'invalid' });
    const [payload, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ app: 'shell', release: '1.0.0-abc1234-20261124T095900Z', exp: NOW + HOUR })).toString('base64url');
    expect(verifyPreviewToken(`${forged}.${signature}`, SECRET, NOW).valid).toBe(false);
    expect(verifyPreviewToken(`${payload}.${signature!.slice(1)}`, SECRET, NOW).valid).toBe(false);
    for (const junk of ['', '.', 'abc', `${token}.x`, '<script>']) expect(verifyPreviewToken(junk, SECRET, NOW)).toEqual({ valid: false, reason: 'invalid' });
  });

  it('never name an unknown app or a release id that could leave the releases folder, even when signed', () => {
    // Crafted claims signed the way the site signs (as someone holding the secret could).
    const signed = (claims: object) => {
      const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
      return `${payload}.${createHmac('sha256', SECRET).update(payload).digest('base64url')}`;
    };
    expect(verifyPreviewToken(signed({ app: 'admin', release: 'r1', exp: NOW + HOUR }), SECRET, NOW).valid).toBe(false);
    expect(verifyPreviewToken(signed({ app: 'blog', release: '../shell', exp: NOW + HOUR }), SECRET, NOW).valid).toBe(false);
    expect(verifyPreviewToken(signed({ app: 'blog', release: 'r1', exp: NOW + HOUR }), SECRET, NOW).valid).toBe(true);
  });

  it('travel in a link to the site’s home page', () => {
    expect(previewUrl('https://khvylia.example', token)).toBe(`https://khvylia.example/?preview=${token}`);
  });
});

describe('loadPreviewSecret', () => {
  let testDb: TestDatabase;
  let db: Database;
  beforeEach(async () => {
    testDb = await createTestDatabase();
    db = createDatabase(testDb.url, { poolSize: 2 });
    await migrateToLatest(db);
  });
  afterEach(async () => {
    await db?.destroy();
    await testDb?.drop();
  });

  it('takes the configured secret (RELEASE_PREVIEW_SECRET, whose length config checks) as it is', async () => {
    expect(await loadPreviewSecret(SECRET, db)).toBe(SECRET);
    // Nothing made in the database for it.
    expect(await countRows(db, 'site_secrets')).toBe(0);
  });

  it('without it, makes one random secret in the database that every later reader shares, on any connection', async () => {
    const first = await loadPreviewSecret(undefined, db);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(await loadPreviewSecret(undefined, db)).toBe(first);
    // Another process on the same database (the release command, another server) reads the same one.
    const other = createDatabase(testDb.url, { poolSize: 1 });
    try {
      expect(await loadPreviewSecret(undefined, other)).toBe(first);
    } finally {
      await other.destroy();
    }
    expect(await countRows(db, 'site_secrets')).toBe(1);
  });

  it('makes one secret when several processes ask first at the same time', async () => {
    const others = [createDatabase(testDb.url, { poolSize: 1 }), createDatabase(testDb.url, { poolSize: 1 })];
    try {
      const secrets = await Promise.all([db, ...others].map((connection) => loadPreviewSecret(undefined, connection)));
      expect(new Set(secrets).size).toBe(1);
    } finally {
      await Promise.all(others.map((connection) => connection.destroy()));
    }
  });

  it('is a different secret on another site (another database)', async () => {
    const otherDb = await createTestDatabase();
    const other = createDatabase(otherDb.url, { poolSize: 1 });
    try {
      await migrateToLatest(other);
      expect(await loadPreviewSecret(undefined, other)).not.toBe(await loadPreviewSecret(undefined, db));
    } finally {
      await other.destroy();
      await otherDb.drop();
    }
  });
});
