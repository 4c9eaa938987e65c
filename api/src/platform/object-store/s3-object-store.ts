import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
  type S3ServiceException,
} from '@aws-sdk/client-s3';
import { ObjectExistsError, type ObjectStore } from './object-store';
import { checkKeySegment, checkObjectKey, checkPrefix, compareKeys } from './object-key';

export interface S3ObjectStoreOptions {
  bucket: string;
  /** Folder of the bucket every key lives under (`releases`, `site/releases/`, or '' for the root). */
  prefix: string;
  client: S3Client;
}

/** DeleteObjects takes at most this many keys per request. */
const DELETE_BATCH = 1000;

/** The error name and HTTP status of an S3 service error; nothing for any other error. */
function serviceError(error: unknown): { name?: string; status?: number } {
  if (typeof error !== 'object' || error === null || !('$metadata' in error)) return {};
  const { name, $metadata } = error as Pick<S3ServiceException, 'name' | '$metadata'>;
  return { name, status: $metadata?.httpStatusCode };
}

/** No such object. A missing bucket is an error of its own (though HEAD cannot tell it apart). */
function isNotFound(error: unknown): boolean {
  const { name, status } = serviceError(error);
  return name === 'NoSuchKey' || name === 'NotFound' || (status === 404 && name !== 'NoSuchBucket');
}

/** The answer to a conditional put whose key exists (412), or that raced another put of it (409). */
function isConditionFailed(error: unknown): boolean {
  const { name, status } = serviceError(error);
  return name === 'PreconditionFailed' || name === 'ConditionalRequestConflict' || status === 412 || status === 409;
}

/** `releases/` from `releases`, `/releases/` or `releases/`; '' for the bucket's root. */
function normalizePrefix(prefix: string): string {
  const trimmed = prefix.replace(/^\/+|\/+$/g, '');
  if (trimmed === '') return '';
  checkObjectKey(trimmed);
  return `${trimmed}/`;
}

/**
 * Artifacts as objects of an S3-compatible bucket (AWS S3, R2, MinIO, Ceph, …) under
 * `<prefix>/<key>`.
 */
export class S3ObjectStore implements ObjectStore {
  readonly bucket: string;
  /** '' or a folder ending with `/`. */
  readonly prefix: string;
  readonly location: string;
  private readonly client: S3Client;

  constructor({ bucket, prefix, client }: S3ObjectStoreOptions) {
    checkKeySegment(bucket, 'a bucket name');
    this.bucket = bucket;
    this.prefix = normalizePrefix(prefix);
    this.client = client;
    this.location = `s3://${bucket}/${this.prefix.replace(/\/$/, '')}`;
  }

  private objectKey(key: string): string {
    checkObjectKey(key);
    return this.prefix + key;
  }

  /**
   * Refuses an existing key twice over. `IfNoneMatch: '*'` makes the store itself refuse, in
   * the same step as the write: AWS S3, R2 and MinIO enforce it, so two machines putting one key
   * at once cannot both win. s3rver (which the tests run) ignores the header and would
   * overwrite: the HEAD before is what refuses there, and it saves sending the body when the
   * object is there already.
   */
  async put(key: string, body: Buffer): Promise<void> {
    const Key = this.objectKey(key);
    if ((await this.headSize(Key)) !== undefined) throw new ObjectExistsError(key);
    try {
      await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key, Body: body, ContentLength: body.length, IfNoneMatch: '*' }));
    } catch (error) {
      if (isConditionFailed(error)) throw new ObjectExistsError(key);
      throw error;
    }
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      if (answer.Body === undefined) return Buffer.alloc(0);
      return Buffer.from(await answer.Body.transformToByteArray());
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async size(key: string): Promise<number | undefined> {
    return this.headSize(this.objectKey(key));
  }

  private async headSize(Key: string): Promise<number | undefined> {
    try {
      const answer = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key }));
      return answer.ContentLength ?? 0;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async list(prefix: string): Promise<string[]> {
    if (prefix !== '') checkPrefix(prefix);
    const keys: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix + prefix, ContinuationToken }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key !== undefined) keys.push(object.Key.slice(this.prefix.length));
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken !== undefined);
    return keys.sort(compareKeys);
  }

  async delete(key: string): Promise<void> {
    // S3 answers a delete of a missing key with success too.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    checkPrefix(prefix);
    const keys = await this.list(prefix);
    for (let start = 0; start < keys.length; start += DELETE_BATCH) {
      const batch = keys.slice(start, start + DELETE_BATCH);
      const answer = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((key) => ({ Key: this.prefix + key })), Quiet: true },
        }),
      );
      const failed = answer.Errors ?? [];
      if (failed.length > 0) {
        const first = failed[0];
        throw new Error(`could not delete ${failed.length} objects under ${prefix} in ${this.location}: ${first?.Key} (${first?.Code}: ${first?.Message})`);
      }
    }
  }
}
