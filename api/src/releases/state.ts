import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** `state.json`: the ids made current, oldest first. The last one is current. */
export interface ReleaseState {
  history: string[];
}

export const STATE_FILE = 'state.json';

/** The one reader of state.json (the server and the release command both use it). */
export async function readState(appDir: string): Promise<ReleaseState> {
  let text: string;
  try {
    text = await fs.readFile(path.join(appDir, STATE_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { history: [] };
    throw error;
  }
  const parsed = JSON.parse(text) as Partial<ReleaseState>;
  if (!Array.isArray(parsed.history) || !parsed.history.every((id) => typeof id === 'string')) {
    throw new Error(`${path.join(appDir, STATE_FILE)} has no "history" list of release ids`);
  }
  return { history: parsed.history };
}

/**
 * Replaces state.json atomically: a reader sees the old or the new file, never half of one, and
 * after a crash the file is whole (written and fsynced under a temp name, then renamed).
 */
export async function writeState(appDir: string, state: ReleaseState): Promise<void> {
  const target = path.join(appDir, STATE_FILE);
  const temp = path.join(appDir, `.${STATE_FILE}.${randomBytes(6).toString('hex')}.tmp`);
  await writeNewFileSynced(temp, `${JSON.stringify({ history: state.history }, null, 2)}\n`);
  try {
    await fs.rename(temp, target);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  await syncDir(appDir);
}

/** Creates `file` (never replacing one) with `text`, on disk before this resolves. */
export async function writeNewFileSynced(file: string, text: string): Promise<void> {
  const handle = await fs.open(file, 'wx');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Makes a rename in the folder durable (where the platform allows opening a directory). */
export async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await fs.open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Not supported here (e.g. Windows): the rename is still atomic, only not yet durable.
  }
}
