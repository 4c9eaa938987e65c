import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** The lock file every state-changing release command holds (one for the whole releases folder). */
export const LOCK_FILE = '.lock';

export class LockHeldError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What a lock file says about its holder. */
interface LockHolder {
  pid?: number;
  host?: string;
  since?: string;
  /** The holder's command, e.g. `publish blog`. */
  command?: string;
}

/** The lock file's text, or undefined when there is none (any more). */
async function readLockText(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function parseHolder(text: string): LockHolder {
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as LockHolder) : {};
  } catch {
    // Half written (its writer died mid-write) or not ours: an unknown holder, never taken over.
    return {};
  }
}

/** Left by a command on this machine whose process is gone. */
function isStale(holder: LockHolder): boolean {
  return holder.host === os.hostname() && typeof holder.pid === 'number' && !isAlive(holder.pid);
}

function heldError(lockPath: string, holder: LockHolder): LockHeldError {
  const what = holder.command ? `${holder.command}, ` : '';
  return new LockHeldError(
    `Another release command is running (${what}pid ${holder.pid ?? '?'} on ${holder.host ?? '?'} since ${holder.since ?? '?'}). ` +
      `Wait for it to finish; if none is running, delete ${lockPath}.`,
  );
}

/** Puts a live lock moved away by mistake back, unless a new one took its place meanwhile. */
async function restoreLock(moved: string, lockPath: string): Promise<void> {
  try {
    // link() never replaces an existing file, unlike rename().
    await fs.link(moved, lockPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      await fs.rm(moved, { force: true });
      return;
    }
    // No hard links on this file system: rename it back.
    await fs.rename(moved, lockPath);
    return;
  }
  await fs.rm(moved, { force: true });
}

/** Takeover attempts before giving up (each one means another command changed the lock meanwhile). */
const MAX_ATTEMPTS = 10;

/**
 * Takes the lock file at `lockPath` for `command`. A lock left by a crashed command on this
 * machine (its process is gone) is taken over; any other held lock is refused with a clear message.
 *
 * Taking over is race-free: the stale lock is renamed to a name of its own (only one of several
 * commands can rename it; the others get ENOENT and try again from the start), then that file is
 * read back. If it is not the stale lock that was read before, another command had taken over in
 * between and this one moved that command's live lock: it is put back and this command refuses.
 */
async function acquireLock(lockPath: string, command: string): Promise<string> {
  const text = JSON.stringify({ pid: process.pid, host: os.hostname(), since: new Date().toISOString(), command });
  for (let attempt = 1; ; attempt += 1) {
    try {
      await fs.writeFile(lockPath, text, { flag: 'wx' });
      return text;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const heldText = await readLockText(lockPath);
    if (heldText === undefined) continue; // released meanwhile
    const holder = parseHolder(heldText);
    if (!isStale(holder) || attempt >= MAX_ATTEMPTS) throw heldError(lockPath, holder);
    const moved = `${lockPath}.stale-${randomBytes(6).toString('hex')}`;
    try {
      await fs.rename(lockPath, moved);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // another command took it over first
      throw error;
    }
    const movedText = (await readLockText(moved)) ?? '';
    if (movedText !== heldText) {
      await restoreLock(moved, lockPath);
      throw heldError(lockPath, parseHolder(movedText));
    }
    await fs.rm(moved, { force: true });
  }
}

/** Deletes the lock if it is still the one `acquireLock` wrote. */
async function releaseLock(lockPath: string, text: string): Promise<void> {
  if ((await readLockText(lockPath).catch(() => undefined)) === text) await fs.rm(lockPath, { force: true });
}

/**
 * Runs `task` holding the lock file `<dir>/.lock`. The release command holds one lock for the
 * whole releases folder around every change (publish, promote, rollback): the compatibility check
 * of one app reads the other apps' current releases, so no two changes may interleave, whichever
 * apps they concern. `command` (e.g. `publish blog`) is shown to a command refused meanwhile.
 */
export async function withLock<T>(dir: string, command: string, task: () => Promise<T>): Promise<T> {
  await fs.mkdir(dir, { recursive: true });
  const lockPath = path.join(dir, LOCK_FILE);
  const text = await acquireLock(lockPath, command);
  try {
    return await task();
  } finally {
    await releaseLock(lockPath, text);
  }
}
