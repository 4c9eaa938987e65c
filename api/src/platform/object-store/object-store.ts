/**
 * Immutable objects, never overwritten: release files (`<app>/<release id>/<path>`) and the
 * database's backups. One interface, two stores: a local folder (`file:<dir>`, the default) and any
 * S3-compatible object store (`s3://<bucket>/<prefix>`).
 *
 * Keys are `/`-separated relative paths without empty, `.` or `..` segments, backslashes or NUL
 * characters: every method throws InvalidObjectKeyError (object-key.ts) for any other key.
 */
export interface ObjectStore {
  /** `file:/abs/dir` or `s3://bucket/prefix`: what logs and the release command show. */
  readonly location: string;
  /**
   * Stores `body` under `key`. Refuses (ObjectExistsError) when the key holds an object already:
   * a stored object never changes.
   */
  put(key: string, body: Buffer): Promise<void>;
  /** The object's bytes, or undefined when there is none. */
  get(key: string): Promise<Buffer | undefined>;
  /** Size in bytes, or undefined when there is none. */
  size(key: string): Promise<number | undefined>;
  /** Every key under `prefix` (which ends with `/`; '' for the whole store), sorted by UTF-8 bytes. */
  list(prefix: string): Promise<string[]>;
  /** Deletes every object under `prefix` (which ends with `/`). */
  deletePrefix(prefix: string): Promise<void>;
  /** Deletes the object `key`; none there is no error. */
  delete(key: string): Promise<void>;
  /**
   * For a store on this machine's disk: the folder holding `prefix`'s objects, read in place
   * (no copy into a cache). Undefined for a remote store.
   */
  localFolder?(prefix: string): string;
}

export class ObjectExistsError extends Error {
  constructor(readonly key: string) {
    super(`${key} is stored already: stored objects are never overwritten`);
  }
}
