import fs from 'node:fs/promises';

/**
 * True when `error` is a Node system error with one of these codes (ENOENT, EEXIST, …). Checked
 * by its `code`, not `instanceof Error`: errors of Node's own modules fail that test under Jest,
 * whose tests run in another realm.
 */
export function isErrno(error: unknown, ...codes: string[]): boolean {
  const code = typeof error === 'object' && error !== null ? (error as NodeJS.ErrnoException).code : undefined;
  return typeof code === 'string' && codes.includes(code);
}

/** Creates `file` (which must not exist) with `body`, flushed to disk before it returns. */
export async function writeNewFileSynced(file: string, body: Buffer): Promise<void> {
  const handle = await fs.open(file, 'wx');
  try {
    await handle.writeFile(body);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Makes a folder's entries (a name added, renamed or removed) durable. Some platforms cannot
 * open a folder for fsync (Windows): the files themselves are synced already, so that is no error.
 */
export async function syncFolder(folder: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(folder, 'r');
    await handle.sync();
  } catch (error) {
    if (!isErrno(error, 'EISDIR', 'EPERM', 'EINVAL', 'EBADF')) throw error;
  } finally {
    await handle?.close();
  }
}
