import path from 'node:path';
import { Type } from '@sinclair/typebox';
import { remoteUrlOverrides, type RemoteName } from '@agency/shared';
import { integer, invalid, optionalText, readEnv, REPO_ROOT, repoPath, text, variable, type Env } from './env';
import { loadS3Config, type S3Config } from './object-store';

/** OPS_WEBHOOK_URL (and OPS_WEBHOOK_SECRET): where the team hears of the site's automatic release decisions. */
export interface OpsWebhookConfig {
  url: string;
  secret?: string;
}

/** Which builds visitors get, where releases are kept and who hears of automatic decisions. */
export interface DeliveryConfig {
  /** Root under which shell/dist and mfe-*\/dist are looked up (the repo root by default). */
  staticRoot: string;
  /** Manifest URLs of remotes hosted elsewhere (REMOTE_*_URL); the others are served by this server. */
  remoteUrls: Partial<Record<RemoteName, string>>;
  /**
   * Where remotes hosted elsewhere leave a copy of the build their own server serves
   * (REMOTE_BUILDS_DIR, `<folder>/dist` inside), so their slots are rendered on the server too;
   * without it they render in the browser only.
   */
  remoteBuildsDir?: string;
  /**
   * RELEASE_STORE: where release files live, immutable under `<app>/<release id>/`: `file:<dir>`
   * (relative to the repo) or `s3://<bucket>/<prefix>` (endpoint, region and credentials from S3_ENDPOINT,
   * AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE).
   */
  releaseStore: string;
  s3: S3Config;
  /** RELEASE_CACHE_DIR: this machine's copies of releases fetched from a remote store. */
  releaseCacheDir: string;
  /** RELEASES_DIR: the folder releases lived in before the database held them, imported once. */
  releasesDir: string;
  /** RELEASE_UPLOAD_MAX_MB: the largest build the release API takes, unpacked. */
  releaseUploadMaxBytes: number;
  /** RELEASE_TOKENS: team tokens made from the environment (`name=app,app:token …`), e.g. by docker compose. */
  releaseTokens?: string;
  /** How many releases per app the release command keeps (the current and previous ones always stay). */
  releasesKeep: number;
  /**
   * RELEASE_PREVIEW_SECRET: signs preview links. Unset, a random secret the database keeps for
   * every process is used (see delivery/visitor/preview-token).
   */
  previewSecret?: string;
  /** Where automatic release decisions are sent (OPS_WEBHOOK_URL, OPS_WEBHOOK_SECRET); none by default. */
  opsWebhook?: OpsWebhookConfig;
}

const previewSecret = variable((value) => {
  const secret = value.trim();
  if (!secret) return undefined;
  if (secret.length < 16) invalid('must be at least 16 characters: it signs links to unreleased builds');
  return secret;
});

const opsWebhookUrl = variable((value) => {
  const url = value.trim();
  if (!url) return undefined;
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) invalid(`must be an http(s) URL, got "${url}"`);
  return url;
});

/** The remotes' URL variables (REMOTE_*_URL) are named by the federation registry, which @agency/shared reads. */
export const DeliveryEnv = Type.Object({
  // These two are resolved from the working folder, unlike RELEASES_DIR.
  STATIC_ROOT: variable((value) => path.resolve(value.trim() || REPO_ROOT)),
  REMOTE_BUILDS_DIR: variable((value) => (value.trim() ? path.resolve(value.trim()) : undefined)),
  RELEASES_DIR: repoPath('data/releases'),
  // Checked when the store is opened (platform/object-store/open-object-store), relative to the repo.
  RELEASE_STORE: text('file:data/release-store'),
  RELEASE_CACHE_DIR: repoPath('data/release-cache'),
  RELEASE_UPLOAD_MAX_MB: integer(100, 1),
  RELEASE_TOKENS: optionalText(),
  RELEASES_KEEP: integer(5, 1),
  RELEASE_PREVIEW_SECRET: previewSecret,
  OPS_WEBHOOK_URL: opsWebhookUrl,
  OPS_WEBHOOK_SECRET: optionalText(),
});

/** The settings the release command needs; parsed on their own so it does not depend on the server's. */
export function loadDeliveryConfig(env: Env = process.env): DeliveryConfig {
  const vars = readEnv(DeliveryEnv, env);
  if (!vars.OPS_WEBHOOK_URL && vars.OPS_WEBHOOK_SECRET) throw new Error('OPS_WEBHOOK_SECRET is set but OPS_WEBHOOK_URL is not');
  return {
    staticRoot: vars.STATIC_ROOT,
    remoteUrls: remoteUrlOverrides(env),
    remoteBuildsDir: vars.REMOTE_BUILDS_DIR,
    releasesDir: vars.RELEASES_DIR,
    releaseStore: vars.RELEASE_STORE,
    releaseCacheDir: vars.RELEASE_CACHE_DIR,
    releaseUploadMaxBytes: vars.RELEASE_UPLOAD_MAX_MB * 1024 * 1024,
    releaseTokens: vars.RELEASE_TOKENS,
    s3: loadS3Config(env),
    releasesKeep: vars.RELEASES_KEEP,
    previewSecret: vars.RELEASE_PREVIEW_SECRET,
    opsWebhook: vars.OPS_WEBHOOK_URL ? { url: vars.OPS_WEBHOOK_URL, secret: vars.OPS_WEBHOOK_SECRET } : undefined,
  };
}
