import { Type } from '@sinclair/typebox';
import { invalid, optionalText, readEnv, text, variable, type Env } from './env';

/** How an `s3://` store (RELEASE_STORE, BACKUP_STORE) is reached (credentials: the AWS SDK's own chain, e.g. AWS_ACCESS_KEY_ID). */
export interface S3Config {
  /** S3_ENDPOINT: another S3-compatible store (Cloudflare R2, MinIO, Ceph RGW); unset: AWS S3. */
  endpoint?: string;
  /** AWS_REGION (`auto` for R2). */
  region: string;
  /** S3_FORCE_PATH_STYLE: `bucket` in the path, not the host name; by default when S3_ENDPOINT is set. */
  forcePathStyle: boolean;
  /** AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN); unset: the AWS SDK's own chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

export const S3Env = Type.Object({
  S3_ENDPOINT: variable((value) => {
    const url = value.trim();
    if (url && (!/^https?:\/\//i.test(url) || !URL.canParse(url))) invalid(`must be an http(s) URL, got "${url}"`);
    return url || undefined;
  }),
  AWS_REGION: text('us-east-1'),
  S3_FORCE_PATH_STYLE: variable((value) => {
    const flag = value.trim().toLowerCase();
    if (!['', 'true', 'false', '1', '0'].includes(flag)) invalid(`must be true or false, got "${value}"`);
    return flag === '' ? undefined : flag === 'true' || flag === '1';
  }),
  AWS_ACCESS_KEY_ID: optionalText(),
  AWS_SECRET_ACCESS_KEY: optionalText(),
  AWS_SESSION_TOKEN: optionalText(),
});

/** The S3 settings every `s3://` store of the site shares: one client configuration for releases and backups. */
export function loadS3Config(env: Env): S3Config {
  const vars = readEnv(S3Env, env);
  if (Boolean(vars.AWS_ACCESS_KEY_ID) !== Boolean(vars.AWS_SECRET_ACCESS_KEY)) throw new Error('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are set together or not at all');
  return {
    endpoint: vars.S3_ENDPOINT,
    region: vars.AWS_REGION,
    forcePathStyle: vars.S3_FORCE_PATH_STYLE ?? vars.S3_ENDPOINT !== undefined,
    ...(vars.AWS_ACCESS_KEY_ID &&
      vars.AWS_SECRET_ACCESS_KEY && {
        credentials: { accessKeyId: vars.AWS_ACCESS_KEY_ID, secretAccessKey: vars.AWS_SECRET_ACCESS_KEY, sessionToken: vars.AWS_SESSION_TOKEN },
      }),
  };
}
