import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, loadDeliveryConfig, loadTelemetryConfig, REPO_ROOT } from '../../../src/platform/config';
import { openReleaseStorage } from '../../../src/delivery/releases/release-storage';
import { cacheControlFor } from '../../../src/platform/http/cache-policy';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: `sqlite:${path.join(REPO_ROOT, 'data/agency.sqlite')}`,
      logLevel: 'info',
      logFormat: 'auto',
      rateLimitMax: 5,
      rateLimitWindow: 60_000,
      trustProxy: false,
      staticRoot: REPO_ROOT,
      remoteUrls: {},
      releasesDir: path.join(REPO_ROOT, 'data/releases'),
      releaseStore: 'file:data/release-store',
      releaseCacheDir: path.join(REPO_ROOT, 'data/release-cache'),
      releaseUploadMaxBytes: 100 * 1024 * 1024,
      releasesKeep: 5,
      shutdownTimeoutMs: 10_000,
      // The server's own address, off production.
      siteUrl: 'http://localhost:8080',
      pageCacheMaxBytes: 64 * 1024 * 1024,
    });
    expect(REPO_ROOT).toBe(path.resolve(__dirname, '../../../..'));
  });

  it('reads the environment', () => {
    const config = loadConfig({
      PORT: '9090',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://u:p@db:5432/agency',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '20',
      RATE_LIMIT_WINDOW: '30 seconds',
      TRUST_PROXY: '10.0.0.0/8,127.0.0.1',
      STATIC_ROOT: '/srv/site',
      REMOTE_HOME_URL: 'https://home.example/mf-manifest.json',
      RELEASES_DIR: 'var/releases',
      RELEASES_KEEP: '3',
      SITE_URL: 'https://khvylia.com.ua',
      PAGE_CACHE_MAX_MB: '16',
    });
    expect(config).toMatchObject({
      port: 9090,
      host: '127.0.0.1',
      databaseUrl: 'postgres://u:p@db:5432/agency',
      logLevel: 'warn',
      rateLimitMax: 20,
      rateLimitWindow: 30_000,
      trustProxy: '10.0.0.0/8,127.0.0.1',
      staticRoot: '/srv/site',
      remoteUrls: { home: 'https://home.example/mf-manifest.json' },
      // Relative to the repo root, like the SQLite file.
      releasesDir: path.join(REPO_ROOT, 'var/releases'),
      releasesKeep: 3,
      siteUrl: 'https://khvylia.com.ua',
      pageCacheMaxBytes: 16 * 1024 * 1024,
    });
    expect(loadConfig({ PAGE_CACHE_MAX_MB: '0' }).pageCacheMaxBytes).toBe(0);
    expect(loadConfig({ RELEASES_DIR: '/srv/releases' }).releasesDir).toBe('/srv/releases');
    expect(loadConfig({ RATE_LIMIT_WINDOW: '120000', TRUST_PROXY: 'true' })).toMatchObject({ rateLimitWindow: 120_000, trustProxy: true });
    expect(loadConfig({ DATABASE_URL: 'sqlite:/var/lib/agency.sqlite' }).databaseUrl).toBe('sqlite:/var/lib/agency.sqlite');
  });

  it('refuses nonsense numbers', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ RATE_LIMIT_MAX: '-1' })).toThrow(/RATE_LIMIT_MAX/);
    expect(() => loadConfig({ RELEASES_KEEP: '0' })).toThrow(/RELEASES_KEEP/);
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT: '10s' })).toThrow(/SHUTDOWN_TIMEOUT/);
    expect(() => loadConfig({ PAGE_CACHE_MAX_MB: '-1' })).toThrow(/PAGE_CACHE_MAX_MB/);
    expect(loadConfig({ SHUTDOWN_TIMEOUT: '2500' }).shutdownTimeoutMs).toBe(2500);
  });

  it('refuses rate-limit settings that would break or block every submission', () => {
    expect(() => loadConfig({ RATE_LIMIT_MAX: '0' })).toThrow(/RATE_LIMIT_MAX/);
    expect(() => loadConfig({ RATE_LIMIT_WINDOW: '1 minuet' })).toThrow(/RATE_LIMIT_WINDOW/);
    expect(() => loadConfig({ RATE_LIMIT_WINDOW: '0' })).toThrow(/RATE_LIMIT_WINDOW/);
  });

  it.each([
    ['90000', 90_000],
    ['1 minute', 60_000],
    ['2h', 7_200_000],
    ['1.5 s', 1_500],
    ['250ms', 250],
  ])('reads the rate-limit window %s as %d ms', (value, ms) => {
    expect(loadConfig({ RATE_LIMIT_WINDOW: value }).rateLimitWindow).toBe(ms);
  });
});

describe('secrets from files (NAME_FILE, as Docker and Kubernetes mount them)', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'config-secrets-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const secret = (name: string, contents: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, contents);
    return file;
  };

  it('reads any variable from the file NAME_FILE names, without its trailing line break', () => {
    const config = loadConfig({
      RELEASE_TOKENS_FILE: secret('release_tokens', 'blog-ci=blog:0123456789abcdef0123456789abcdef\n'),
      METRICS_TOKEN_FILE: secret('metrics_token', 'scrape-me'),
    });
    expect(config.releaseTokens).toBe('blog-ci=blog:0123456789abcdef0123456789abcdef');
    expect(config.metricsToken).toBe('scrape-me');
  });

  it('refuses a variable set both ways, and a file that cannot be read, naming the variable', () => {
    const file = secret('metrics_token', 'one');
    expect(() => loadConfig({ METRICS_TOKEN: 'two', METRICS_TOKEN_FILE: file })).toThrow('METRICS_TOKEN and METRICS_TOKEN_FILE are both set');
    expect(() => loadConfig({ METRICS_TOKEN_FILE: path.join(dir, 'missing') })).toThrow(`METRICS_TOKEN_FILE names a file that cannot be read (ENOENT): ${path.join(dir, 'missing')}`);
  });

  it('puts DATABASE_PASSWORD (from its secret) into a postgres DATABASE_URL, escaped', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://agency@postgres:5432/agency', DATABASE_PASSWORD_FILE: secret('db_password', 'p@ss:w/rd\n') });
    expect(config.databaseUrl).toBe('postgres://agency:p%40ss%3Aw%2Frd@postgres:5432/agency');
    expect(new URL(config.databaseUrl).password).toBe(encodeURIComponent('p@ss:w/rd'));
  });

  it('refuses DATABASE_PASSWORD beside a URL that has one, or with SQLite', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u:p@db/agency', DATABASE_PASSWORD: 'q' })).toThrow('DATABASE_URL has a password and DATABASE_PASSWORD is set too');
    expect(() => loadConfig({ DATABASE_PASSWORD: 'q' })).toThrow('DATABASE_PASSWORD is only for a postgres:// DATABASE_URL');
  });
});

describe('SITE_URL', () => {
  it.each([
    ['https://khvylia.com.ua', 'https://khvylia.com.ua'],
    ['https://khvylia.com.ua/', 'https://khvylia.com.ua'],
    ['  https://khvylia.com.ua  ', 'https://khvylia.com.ua'],
    ['HTTPS://Khvylia.COM.ua:443/', 'https://khvylia.com.ua'],
    ['http://localhost:8080', 'http://localhost:8080'],
    ['http://127.0.0.1:3000/', 'http://127.0.0.1:3000'],
  ])('reads %s as the origin %s', (value, origin) => {
    expect(loadConfig({ SITE_URL: value }).siteUrl).toBe(origin);
  });

  it.each(['', '   '])('treats %j as unset: the server’s own address, off production', (value) => {
    expect(loadConfig({ SITE_URL: value, PORT: '3000' }).siteUrl).toBe('http://localhost:3000');
  });

  it('is required in production, where pages are cached for every visitor', () => {
    for (const unset of [{}, { SITE_URL: '' }]) {
      expect(() => loadConfig({ ...unset, NODE_ENV: 'production' })).toThrow(/^SITE_URL must be set in production: the public origin of the site/);
    }
    expect(loadConfig({ NODE_ENV: 'production', SITE_URL: 'https://khvylia.com.ua' }).siteUrl).toBe('https://khvylia.com.ua');
  });

  it.each([
    'khvylia.com.ua',
    '/blog',
    'ftp://khvylia.com.ua',
    'https://khvylia.com.ua/uk',
    'https://khvylia.com.ua/blog/',
    'https://khvylia.com.ua?lang=uk',
    'https://khvylia.com.ua/?',
    'https://khvylia.com.ua#top',
    'https://user:secret@khvylia.com.ua',
    'https://',
  ])('refuses %s, which is no bare http(s) origin', (value) => {
    expect(() => loadConfig({ SITE_URL: value })).toThrow(
      `SITE_URL must be an http(s) origin such as https://example.com, got "${value}"`,
    );
  });
});

describe('LOG_FORMAT', () => {
  it.each([
    [undefined, 'auto'],
    ['', 'auto'],
    ['  ', 'auto'],
    ['auto', 'auto'],
    ['json', 'json'],
    ['pretty', 'pretty'],
    [' JSON ', 'json'],
  ])('reads %j as %s', (value, format) => {
    expect(loadConfig({ LOG_FORMAT: value }).logFormat).toBe(format);
  });

  it.each(['text', 'yaml', 'pino-pretty', 'true'])('refuses %j, failing the start with a message naming LOG_FORMAT', (value) => {
    expect(() => loadConfig({ LOG_FORMAT: value })).toThrow(
      `LOG_FORMAT must be json, pretty or auto (readable on a terminal, JSON otherwise), got "${value}"`,
    );
  });
});

describe('REDIS_URL', () => {
  it.each([undefined, '', '   '])('is unset for %j: the rate limit stays in memory', (value) => {
    expect(loadConfig({ REDIS_URL: value }).redisUrl).toBeUndefined();
  });

  it.each([
    ['redis://127.0.0.1:6379', 'redis://127.0.0.1:6379'],
    ['  redis://redis:6379/2  ', 'redis://redis:6379/2'],
    ['rediss://:secret@cache.example.com:6380', 'rediss://:secret@cache.example.com:6380'],
  ])('reads %j', (value, url) => {
    expect(loadConfig({ REDIS_URL: value }).redisUrl).toBe(url);
  });

  it.each(['http://x', 'redis-host:6379', '127.0.0.1:6379', 'redis://', 'not a url'])(
    'refuses %j, failing the start with a message naming REDIS_URL',
    (value) => {
      expect(() => loadConfig({ REDIS_URL: value })).toThrow(/^REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
    },
  );

  it('does not repeat a refused value, which may hold a password', () => {
    expect(() => loadConfig({ REDIS_URL: 'https://user:hunter2@cache.example.com' })).toThrow(
      'REDIS_URL must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379, got a URL with the scheme "https:"',
    );
  });
});

describe('cacheControlFor', () => {
  it.each([
    ['index.html', 'no-cache'],
    ['remoteEntry.js', 'no-cache'],
    ['mf-manifest.json', 'no-cache'],
    ['main.3f2a9c1b7d.js', 'public, max-age=31536000, immutable'],
    ['vendors-node_modules_react.0a1b2c3d4e5f.js', 'public, max-age=31536000, immutable'],
    ['styles.abcdef0123.css', 'public, max-age=31536000, immutable'],
    ['favicon.ico', 'public, max-age=86400'],
    ['analytics.svg', 'public, max-age=86400'],
  ])('%s → %s', (file, expected) => {
    expect(cacheControlFor(`/some/dir/${file}`)).toBe(expected);
  });
});

describe('telemetry (TELEMETRY, TELEMETRY_SAMPLE, TELEMETRY_RETENTION_DAYS, TELEMETRY_RATE_LIMIT)', () => {
  it('is on for every page load by default, kept 14 days, 120 beacons a minute per address', () => {
    expect(loadConfig({}).telemetry).toEqual({ enabled: true, sample: 1, retentionDays: 14, rateLimitPerMinute: 120 });
    expect(loadTelemetryConfig({ TELEMETRY: '', TELEMETRY_SAMPLE: ' ', TELEMETRY_RETENTION_DAYS: '', TELEMETRY_RATE_LIMIT: '' })).toEqual({
      enabled: true,
      sample: 1,
      retentionDays: 14,
      rateLimitPerMinute: 120,
    });
  });

  it.each([
    ['on', true],
    ['off', false],
    [' OFF ', false],
    ['On', true],
  ])('reads TELEMETRY=%j as enabled: %s', (value, enabled) => {
    expect(loadConfig({ TELEMETRY: value }).telemetry.enabled).toBe(enabled);
  });

  it.each(['yes', 'no', 'true', 'false', '0', '1', 'disabled'])('refuses TELEMETRY=%j', (value) => {
    expect(() => loadConfig({ TELEMETRY: value })).toThrow(`TELEMETRY must be on or off, got "${value}"`);
  });

  it.each([
    ['0', 0],
    ['0.1', 0.1],
    ['.25', 0.25],
    ['1', 1],
    [' 0.5 ', 0.5],
  ])('reads TELEMETRY_SAMPLE=%j as %d', (value, sample) => {
    expect(loadConfig({ TELEMETRY_SAMPLE: value }).telemetry.sample).toBe(sample);
  });

  it.each(['-0.1', '1.01', '2', '10%', 'half', 'NaN', 'Infinity'])('refuses TELEMETRY_SAMPLE=%j, outside 0 to 1', (value) => {
    expect(() => loadConfig({ TELEMETRY_SAMPLE: value })).toThrow(`TELEMETRY_SAMPLE must be a number from 0 to 1, got "${value}"`);
  });

  it('reads the retention in whole days, at least one', () => {
    expect(loadConfig({ TELEMETRY_RETENTION_DAYS: '30' }).telemetry.retentionDays).toBe(30);
    expect(loadConfig({ TELEMETRY_RETENTION_DAYS: '1' }).telemetry.retentionDays).toBe(1);
    for (const value of ['0', '-3', '1.5', '2w']) expect(() => loadConfig({ TELEMETRY_RETENTION_DAYS: value })).toThrow(/^TELEMETRY_RETENTION_DAYS must be an integer of at least 1/);
  });

  it('reads the per-address limit in beacons per minute, at least one', () => {
    expect(loadConfig({ TELEMETRY_RATE_LIMIT: '600' }).telemetry.rateLimitPerMinute).toBe(600);
    for (const value of ['0', '-1', '2.5', 'many']) expect(() => loadConfig({ TELEMETRY_RATE_LIMIT: value })).toThrow(/^TELEMETRY_RATE_LIMIT must be an integer of at least 1/);
  });

  it('keeps the other settings when telemetry is off', () => {
    expect(loadConfig({ TELEMETRY: 'off', TELEMETRY_SAMPLE: '0.2' }).telemetry).toEqual({ enabled: false, sample: 0.2, retentionDays: 14, rateLimitPerMinute: 120 });
  });
});

describe('METRICS_TOKEN', () => {
  it.each([undefined, '', '   '])('is unset for %j: GET /metrics does not exist', (value) => {
    expect(loadConfig({ METRICS_TOKEN: value }).metricsToken).toBeUndefined();
  });

  it('is read without surrounding blanks', () => {
    expect(loadConfig({ METRICS_TOKEN: '  s3cret-token \n' }).metricsToken).toBe('s3cret-token');
  });
});

describe('RELEASE_PREVIEW_SECRET', () => {
  it('is read without surrounding blanks, and unset when blank', () => {
    expect(loadConfig({ RELEASE_PREVIEW_SECRET: '  a-secret-of-at-least-16-chars ' }).previewSecret).toBe('a-secret-of-at-least-16-chars');
    expect(loadConfig({ RELEASE_PREVIEW_SECRET: '  ' }).previewSecret).toBeUndefined();
  });

  it('refuses one too short to protect unreleased builds, for the server and the release command alike', () => {
    const message = 'RELEASE_PREVIEW_SECRET must be at least 16 characters: it signs links to unreleased builds';
    expect(() => loadConfig({ RELEASE_PREVIEW_SECRET: 'short' })).toThrow(message);
    expect(() => loadDeliveryConfig({ RELEASE_PREVIEW_SECRET: 'short' })).toThrow(message);
  });
});

describe('the release store (RELEASE_STORE, RELEASE_CACHE_DIR, S3_ENDPOINT, AWS_REGION, S3_FORCE_PATH_STYLE)', () => {
  it('is a folder of the checkout by default, reached through no S3 settings', () => {
    const config = loadDeliveryConfig({});
    expect(config).toMatchObject({ releaseStore: 'file:data/release-store', releaseCacheDir: path.join(REPO_ROOT, 'data/release-cache') });
    expect(config.s3).toEqual({ region: 'us-east-1', forcePathStyle: false });
    // A relative folder is the repo's, wherever the command runs from.
    expect(openReleaseStorage(config).store.location).toBe(`file:${path.join(REPO_ROOT, 'data/release-store')}`);
    expect(loadDeliveryConfig({ RELEASE_STORE: '  ', RELEASE_CACHE_DIR: ' ', AWS_REGION: ' ' })).toMatchObject({
      releaseStore: 'file:data/release-store',
      releaseCacheDir: path.join(REPO_ROOT, 'data/release-cache'),
      s3: { region: 'us-east-1' },
    });
  });

  it('reads a folder, an S3 bucket and the S3 settings, for the server and the release command alike', () => {
    const env = { RELEASE_STORE: ' s3://agency-releases/site/ ', RELEASE_CACHE_DIR: 'var/cache', S3_ENDPOINT: ' http://minio:9000 ', AWS_REGION: ' auto ' };
    for (const config of [loadConfig(env), loadDeliveryConfig(env)]) {
      expect(config).toMatchObject({ releaseStore: 's3://agency-releases/site/', releaseCacheDir: path.join(REPO_ROOT, 'var/cache') });
      // Another S3-compatible store is addressed by path unless told otherwise.
      expect(config.s3).toEqual({ endpoint: 'http://minio:9000', region: 'auto', forcePathStyle: true });
    }
    expect(loadDeliveryConfig({ RELEASE_CACHE_DIR: '/var/cache/releases' }).releaseCacheDir).toBe('/var/cache/releases');
    expect(openReleaseStorage(loadDeliveryConfig({ RELEASE_STORE: 'file:/srv/release-store' })).store.location).toBe('file:/srv/release-store');
    expect(openReleaseStorage(loadDeliveryConfig({ RELEASE_STORE: 'file:var/store' })).store.location).toBe(`file:${path.join(REPO_ROOT, 'var/store')}`);
  });

  it.each([
    ['true', true],
    ['1', true],
    [' FALSE ', false],
    ['0', false],
  ])('reads S3_FORCE_PATH_STYLE=%j as %s, with an endpoint or without', (value, forcePathStyle) => {
    expect(loadDeliveryConfig({ S3_FORCE_PATH_STYLE: value }).s3.forcePathStyle).toBe(forcePathStyle);
    expect(loadDeliveryConfig({ S3_FORCE_PATH_STYLE: value, S3_ENDPOINT: 'https://r2.example' }).s3.forcePathStyle).toBe(forcePathStyle);
  });

  it('refuses an endpoint that is not an http(s) URL, and a path style that is not true or false', () => {
    for (const value of ['minio:9000', 'ftp://minio', 'http://']) {
      expect(() => loadConfig({ S3_ENDPOINT: value })).toThrow(`S3_ENDPOINT must be an http(s) URL, got "${value}"`);
    }
    expect(() => loadDeliveryConfig({ S3_FORCE_PATH_STYLE: 'yes' })).toThrow('S3_FORCE_PATH_STYLE must be true or false, got "yes"');
  });

  it('takes access keys in pairs only', () => {
    expect(() => loadDeliveryConfig({ AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE' })).toThrow(/AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
    expect(() => loadDeliveryConfig({ AWS_SECRET_ACCESS_KEY: 'secret' })).toThrow(/AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
  });

  it.each([
    ['ftp://releases.example/site', /^RELEASE_STORE must be file:<dir> or s3:\/\/<bucket>\/<prefix>/],
    ['data/release-store', /^RELEASE_STORE must be file:<dir> or s3:\/\/<bucket>\/<prefix>/],
    ['file:', /^RELEASE_STORE must be file:<dir> or s3:\/\/<bucket>\/<prefix>: file: names no folder$/],
    ['s3://Agency_Releases/site', /^RELEASE_STORE must be file:<dir> or s3:\/\/<bucket>\/<prefix>: "Agency_Releases" in s3:\/\/Agency_Releases\/site is not a bucket name$/],
    ['s3://agency-releases/../site', /^RELEASE_STORE must be file:<dir> or s3:\/\/<bucket>\/<prefix>: the prefix "..\/site"/],
  ])('refuses RELEASE_STORE=%j when the store is opened (the start of the server or the command)', (value, message) => {
    const config = loadDeliveryConfig({ RELEASE_STORE: value });
    expect(() => openReleaseStorage(config)).toThrow(message);
  });
});

describe('the release API (RELEASE_UPLOAD_MAX_MB, RELEASE_TOKENS)', () => {
  it('takes builds of up to 100 MB unpacked by default, and no tokens from the environment', () => {
    expect(loadConfig({})).toMatchObject({ releaseUploadMaxBytes: 100 * 1024 * 1024, releaseTokens: undefined });
    expect(loadDeliveryConfig({ RELEASE_UPLOAD_MAX_MB: ' ', RELEASE_TOKENS: '  ' })).toMatchObject({ releaseUploadMaxBytes: 100 * 1024 * 1024, releaseTokens: undefined });
  });

  it('reads the limit in whole megabytes, and the tokens as given (checked when the server provisions them)', () => {
    expect(loadConfig({ RELEASE_UPLOAD_MAX_MB: '7' }).releaseUploadMaxBytes).toBe(7 * 1024 * 1024);
    expect(loadDeliveryConfig({ RELEASE_TOKENS: '  blog-ci=blog:0123456789abcdef0123456789abcdef  ' }).releaseTokens).toBe('blog-ci=blog:0123456789abcdef0123456789abcdef');
  });

  it.each(['0', '-5', '1.5', '100MB', 'lots'])('refuses RELEASE_UPLOAD_MAX_MB=%j', (value) => {
    expect(() => loadConfig({ RELEASE_UPLOAD_MAX_MB: value })).toThrow(`RELEASE_UPLOAD_MAX_MB must be an integer of at least 1, got "${value}"`);
  });
});

describe('OPS_WEBHOOK_URL, OPS_WEBHOOK_SECRET', () => {
  it('are off by default, and read together', () => {
    expect(loadConfig({}).opsWebhook).toBeUndefined();
    expect(loadConfig({ OPS_WEBHOOK_URL: ' https://ops.example/hook ', OPS_WEBHOOK_SECRET: 's3cret' }).opsWebhook).toEqual({
      url: 'https://ops.example/hook',
      secret: 's3cret',
    });
  });

  it('refuses a URL that is not http(s), and a secret without a URL', () => {
    expect(() => loadConfig({ OPS_WEBHOOK_URL: 'ops.example/hook' })).toThrow('OPS_WEBHOOK_URL must be an http(s) URL, got "ops.example/hook"');
    expect(() => loadConfig({ OPS_WEBHOOK_SECRET: 's3cret' })).toThrow('OPS_WEBHOOK_SECRET is set but OPS_WEBHOOK_URL is not');
  });
});
