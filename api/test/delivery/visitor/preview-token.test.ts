import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PREVIEW_TOKEN_HOURS } from '@agency/shared';
import { loadPreviewSecret, PREVIEW_SECRET_FILE, previewUrl, signPreviewToken, verifyPreviewToken } from '../../../src/delivery/visitor/preview-token';

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
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-preview-secret-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('takes the configured secret (RELEASE_PREVIEW_SECRET, whose length config checks) as it is', () => {
    expect(loadPreviewSecret(SECRET, dir)).toBe(SECRET);
    expect(fs.existsSync(path.join(dir, PREVIEW_SECRET_FILE))).toBe(false);
  });

  it('without it, makes one random secret in the releases folder that every later reader shares, readable by its owner only', () => {
    const releases = path.join(dir, 'releases');
    const first = loadPreviewSecret(undefined, releases);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(loadPreviewSecret(undefined, releases)).toBe(first);
    expect(fs.statSync(path.join(releases, PREVIEW_SECRET_FILE)).mode & 0o077).toBe(0);
  });
});
