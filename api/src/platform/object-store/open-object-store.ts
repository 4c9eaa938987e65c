import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import type { S3Config } from '../config';
import type { ObjectStore } from './object-store';
import { FileObjectStore } from './file-object-store';
import { keyProblem } from './object-key';

/**
 * The AWS SDK's S3 client, loaded by the first store that is in S3: its modules take about 0.2
 * CPU-seconds to load, which a site, a command or a test on a folder store (the default) would
 * pay at every start for nothing.
 */
function s3Sdk(): { client: typeof import('@aws-sdk/client-s3'); store: typeof import('./s3-object-store') } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded when first needed, synchronously as the store opens
  return { client: require('@aws-sdk/client-s3'), store: require('./s3-object-store') };
}

/** What a store's variable may hold, for the messages of `variable` (RELEASE_STORE, BACKUP_STORE). */
const storeForms = (variable: string) => `${variable} must be file:<dir> or s3://<bucket>/<prefix>`;

/** S3 bucket names: 3 to 63 lowercase letters, digits, dots and hyphens. */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** `file:/abs`, `file:relative/dir` or `file:///abs` → an absolute folder. */
function folderOf(url: string, baseDir: string, variable: string): string {
  const rest = url.slice('file:'.length);
  let dir: string;
  if (rest.startsWith('//')) {
    try {
      dir = fileURLToPath(url);
    } catch (error) {
      throw new Error(`${storeForms(variable)}: ${url} is not a file URL of this machine (${(error as Error).message})`);
    }
  } else {
    dir = rest;
  }
  if (dir === '') throw new Error(`${storeForms(variable)}: ${url} names no folder`);
  return path.resolve(baseDir, dir);
}

/**
 * The client for an S3-compatible store (AWS S3 when no endpoint is set). Credentials: the ones
 * configured (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY), else the SDK's default chain (shared
 * config files, SSO, instance or container roles, …).
 */
export function s3Client(s3: S3Config): S3Client {
  const config: S3ClientConfig = { region: s3.region, endpoint: s3.endpoint, forcePathStyle: s3.forcePathStyle };
  if (s3.endpoint !== undefined) {
    // Checksums only where the API requires them: several S3-compatible stores reject the
    // CRC32 checksums the SDK adds by default. Release files are checked by SHA-256 anyway.
    config.requestChecksumCalculation = 'WHEN_REQUIRED';
    config.responseChecksumValidation = 'WHEN_REQUIRED';
  }
  if (s3.credentials) config.credentials = s3.credentials;
  return new (s3Sdk().client.S3Client)(config);
}

/** `s3://bucket/some/prefix` → its bucket and prefix. */
function s3Location(url: string, variable: string): { bucket: string; prefix: string } {
  const rest = url.slice('s3://'.length);
  const slash = rest.indexOf('/');
  const bucket = slash === -1 ? rest : rest.slice(0, slash);
  const prefix = slash === -1 ? '' : rest.slice(slash + 1);
  if (!BUCKET_NAME.test(bucket)) throw new Error(`${storeForms(variable)}: ${JSON.stringify(bucket)} in ${url} is not a bucket name`);
  const folder = prefix.replace(/\/+$/, '');
  if (folder !== '' && keyProblem(folder) !== undefined) {
    throw new Error(`${storeForms(variable)}: the prefix ${JSON.stringify(prefix)} in ${url} is not a folder path (${keyProblem(folder)})`);
  }
  return { bucket, prefix };
}

/**
 * The store a variable's value (`variable`: RELEASE_STORE, BACKUP_STORE) names: `file:<dir>` (a
 * relative dir is taken from `baseDir`) or `s3://<bucket>/<prefix>`, reached with the S3 settings `s3`.
 */
export function openObjectStore(url: string, s3: S3Config, baseDir: string = process.cwd(), variable = 'RELEASE_STORE'): ObjectStore {
  const value = url.trim();
  if (value.startsWith('file:')) return new FileObjectStore(folderOf(value, baseDir, variable));
  if (value.startsWith('s3://')) {
    const { bucket, prefix } = s3Location(value, variable);
    return new (s3Sdk().store.S3ObjectStore)({ bucket, prefix, client: s3Client(s3) });
  }
  throw new Error(`${storeForms(variable)}, not ${JSON.stringify(url)}`);
}
