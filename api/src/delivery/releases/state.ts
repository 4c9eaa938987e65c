import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** What happened to a release on its way to visitors, as `--status` lists it. */
export const DELIVERY_ACTIONS = ['staged', 'canary', 'promoted', 'rolled_back', 'aborted'] as const;
export type DeliveryAction = (typeof DELIVERY_ACTIONS)[number];

/** One decision, by a person (the release command) or by the site (release health). */
export interface DeliveryEvent {
  /** ISO time. */
  at: string;
  release: string;
  action: DeliveryAction;
  reason: string;
}

/** The release a share of visitors gets instead of the current one, and the rules it is judged by. */
export interface Candidate {
  id: string;
  /** Percent of visitors (their buckets), above 0 and up to 100. */
  share: number;
  /** Candidate page views before its health is compared with the current release's. */
  minViews: number;
  /** Healthy candidate page views after which it is made current by itself; null: a person promotes. */
  promoteAfter: number | null;
  /** ISO time it became the candidate: its health and the current release's are compared from then on. */
  since: string;
}

/** Events kept per app (the oldest go first). */
export const EVENTS_KEPT = 200;

/**
 * `state.json`: the ids made current, oldest first (the last one is current), the candidate of a
 * canary if one runs, and the decisions made so far.
 */
export interface ReleaseState {
  history: string[];
  candidate?: Candidate;
  events: DeliveryEvent[];
}

export const STATE_FILE = 'state.json';

/** The one reader of state.json (the server and the release command both use it). */
export async function readState(appDir: string): Promise<ReleaseState> {
  let text: string;
  try {
    text = await fs.readFile(path.join(appDir, STATE_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { history: [], events: [] };
    throw error;
  }
  const parsed = JSON.parse(text) as Partial<ReleaseState>;
  if (!Array.isArray(parsed.history) || !parsed.history.every((id) => typeof id === 'string')) {
    throw new Error(`${path.join(appDir, STATE_FILE)} has no "history" list of release ids`);
  }
  // Files written before canaries existed have neither.
  const events = Array.isArray(parsed.events) ? parsed.events.filter(isEvent) : [];
  const candidate = isCandidate(parsed.candidate) ? parsed.candidate : undefined;
  return { history: parsed.history, events, ...(candidate && { candidate }) };
}

function isEvent(value: unknown): value is DeliveryEvent {
  const event = value as DeliveryEvent | null;
  return (
    typeof event === 'object' &&
    event !== null &&
    typeof event.at === 'string' &&
    typeof event.release === 'string' &&
    typeof event.reason === 'string' &&
    (DELIVERY_ACTIONS as readonly string[]).includes(event.action)
  );
}

function isCandidate(value: unknown): value is Candidate {
  const candidate = value as Candidate | null | undefined;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.id === 'string' &&
    typeof candidate.share === 'number' &&
    typeof candidate.minViews === 'number' &&
    (candidate.promoteAfter === null || typeof candidate.promoteAfter === 'number') &&
    typeof candidate.since === 'string'
  );
}

/** The state with `event` added (the oldest dropped past EVENTS_KEPT). */
export function withEvent(state: ReleaseState, event: DeliveryEvent): ReleaseState {
  return { ...state, events: [...state.events, event].slice(-EVENTS_KEPT) };
}

/**
 * Replaces state.json atomically: a reader sees the old or the new file, never half of one, and
 * after a crash the file is whole (written and fsynced under a temp name, then renamed).
 */
export async function writeState(appDir: string, state: ReleaseState): Promise<void> {
  const target = path.join(appDir, STATE_FILE);
  const temp = path.join(appDir, `.${STATE_FILE}.${randomBytes(6).toString('hex')}.tmp`);
  const { history, candidate, events } = state;
  await writeNewFileSynced(temp, `${JSON.stringify({ history, candidate, events }, null, 2)}\n`);
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
