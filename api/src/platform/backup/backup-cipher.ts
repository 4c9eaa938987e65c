import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { generateX25519Identity, identityToRecipient } from 'age-encryption';
import { runWorkerProgram } from './worker-program';

/**
 * Backups are gzip inside age (age-encryption.org/v1, X25519): a well-kept format with a reference
 * CLI, so a backup can be opened without this code (`age -d -i key.txt | gunzip`). age authenticates
 * every 64 KiB chunk, so a changed or truncated file fails to decrypt instead of restoring garbage.
 */

/** A new identity (`AGE-SECRET-KEY-1…`); X25519 so that Debian's `age` 1.1 opens the files too. */
export function generateBackupKey(): Promise<string> {
  return generateX25519Identity();
}

/** The public half of `identity` (`age1…`): all a backup needs to be written. */
export function backupRecipient(identity: string): Promise<string> {
  return identityToRecipient(identity);
}

/**
 * The worker's whole program. Compression and encryption run on a thread of their own: on the
 * server's event loop, between visitors' requests (each commit waits for its fsync there), the
 * hundreds of steps of a large file's streams took minutes instead of seconds. Plain JavaScript:
 * a worker cannot load TypeScript sources under the test runner.
 */
const CIPHER_PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const { Readable, Transform } = require('node:stream');
const { pipeline } = require('node:stream/promises');
const zlib = require('node:zlib');
const age = require(workerData.age);
// The lowest priority for this thread (Linux keeps a nice value per thread): visitors' requests on
// the main thread go first; a backup only takes the CPU they leave.
try {
  require('node:os').setPriority(19);
} catch {}

/**
 * gzip on this thread, one member per MiB (a gzip file may hold several; gunzip reads them all):
 * the zlib stream would compress on libuv's shared pool, at full priority.
 */
function gzipHere(level) {
  const size = 1024 * 1024;
  let pending = [];
  let pendingBytes = 0;
  const flush = (stream) => {
    if (pendingBytes > 0) stream.push(zlib.gzipSync(Buffer.concat(pending), { level }));
    pending = [];
    pendingBytes = 0;
  };
  return new Transform({
    transform(chunk, _encoding, done) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes >= size) flush(this);
      done();
    },
    flush(done) {
      flush(this);
      done();
    },
  });
}

function measure() {
  const hash = createHash('sha256');
  const counter = new Transform({
    transform(chunk, _encoding, done) {
      counter.bytes += chunk.length;
      hash.update(chunk);
      done(null, chunk);
    },
  });
  counter.bytes = 0;
  counter.digest = () => hash.digest('hex');
  return counter;
}

async function seal({ source, target, recipient }) {
  const encrypter = new age.Encrypter();
  encrypter.addRecipient(recipient);
  const plain = measure();
  // Level 3: a third of the CPU of the default level on a database, for files a little larger (docs/performance.md).
  const compressed = fs.createReadStream(source).pipe(plain).pipe(gzipHere(3));
  const encrypted = await encrypter.encrypt(Readable.toWeb(compressed));
  const sealed = measure();
  await pipeline(Readable.fromWeb(encrypted), sealed, fs.createWriteStream(target, { flags: 'wx', mode: 0o600 }));
  return { plainBytes: plain.bytes, plainSha256: plain.digest(), bytes: sealed.bytes, sha256: sealed.digest() };
}

async function unseal({ source, target, identity }) {
  const decrypter = new age.Decrypter();
  decrypter.addIdentity(identity);
  // Pieces of 64 KiB: age's reader copies what is left of a chunk at each step.
  const decrypted = await decrypter.decrypt(Readable.toWeb(fs.createReadStream(source, { highWaterMark: 64 * 1024 })));
  const plain = measure();
  await pipeline(Readable.fromWeb(decrypted), zlib.createGunzip(), plain, fs.createWriteStream(target, { flags: 'wx', mode: 0o600 }));
  return { plainBytes: plain.bytes, plainSha256: plain.digest() };
}

(workerData.task === 'seal' ? seal : unseal)(workerData).then(
  (result) => parentPort.postMessage({ result }),
  (error) => parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) }),
);
`;

function inWorker<T>(workerData: Record<string, string>): Promise<T> {
  return runWorkerProgram(CIPHER_PROGRAM, { ...workerData, age: require.resolve('age-encryption') });
}

export interface SealedFile {
  /** Bytes of the plain input. */
  plainBytes: number;
  /** SHA-256 (hex) of the plain input. */
  plainSha256: string;
  /** Bytes of the sealed output. */
  bytes: number;
  /** SHA-256 (hex) of the sealed output, as stored. */
  sha256: string;
}

/** Compresses and encrypts the file `source` to `recipient` into the new file `target`, off the event loop. */
export function sealFile(source: string, target: string, recipient: string): Promise<SealedFile> {
  return inWorker({ task: 'seal', source, target, recipient });
}

/** Decrypts with `identity` and decompresses the file `source` into the new file `target`; throws on any change to the bytes. */
export function unsealFile(source: string, target: string, identity: string): Promise<{ plainBytes: number; plainSha256: string }> {
  return inWorker({ task: 'unseal', source, target, identity });
}

/** unsealFile for sealed bytes in memory (as read from the store): they pass through a file beside `target`. */
export async function unsealToFile(sealed: Buffer, target: string, identity: string): Promise<{ plainBytes: number; plainSha256: string }> {
  const source = `${target}.${randomBytes(4).toString('hex')}.age`;
  await fs.writeFile(source, sealed, { mode: 0o600 });
  try {
    return await unsealFile(source, target, identity);
  } finally {
    await fs.rm(source, { force: true });
  }
}

/** SHA-256 (hex) of bytes, as manifests record them. */
export function sha256Of(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
