import type { ReleaseExpectation } from '@agency/shared';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/connection';
import type { AppName } from './apps';
import { currentOf } from './release-repository';
import { ConcurrentChangeError } from './refused-error';
import type { Candidate, DeliveryAction } from './state';

/** One change of an app's releases, decided on the state of `startedAt` (the app's revision then). */
export interface ReleaseChange {
  app: AppName;
  /** The app's revision the change was decided on: another change since refuses this one. */
  startedAt: number;
  /**
   * What of other apps the decision rests on (the compatibility gate read their current release
   * and candidate): if either changed meanwhile, the change is refused too.
   */
  reliesOn?: readonly { app: AppName; current: string | undefined; candidate: string | undefined }[];
  /** The state the caller named (see ReleaseExpectation): checked again under the lock. */
  expect?: ReleaseExpectation;
  /** The new history (its last id is current); unchanged when undefined. */
  history?: readonly string[];
  /** The new candidate; null drops it; unchanged when undefined. */
  candidate?: Candidate | null;
  events: readonly { release: string; action: DeliveryAction; reason: string }[];
  /** Releases the record forgets (pruned); their files go from the store afterwards. */
  forget?: readonly string[];
  actor: string;
  at: Date;
}

interface StoredState {
  revision: number;
  history: string[];
  /** The candidate as stored (JSON), kept as it is by a change that does not name one. */
  candidateText: string | null;
  /** Ids of the app's stored releases. */
  stored: Set<string>;
  current: string | undefined;
  candidate: string | undefined;
}

async function readStoredState(trx: Db, app: AppName): Promise<StoredState> {
  const row = await trx.kysely.selectFrom('release_apps').selectAll().where('app', '=', app).executeTakeFirst();
  const history = row ? (JSON.parse(row.history) as string[]) : [];
  const stored = new Set(
    (await trx.kysely.selectFrom('releases').select('id').where('app', '=', app).where('status', '=', 'stored').execute()).map((release) => release.id),
  );
  const current = currentOf(history, stored);
  const candidateId = row?.candidate ? (JSON.parse(row.candidate) as Candidate).id : undefined;
  return {
    revision: Number(row?.revision ?? 0),
    history,
    candidateText: row?.candidate ?? null,
    stored,
    current,
    candidate: candidateId !== undefined && stored.has(candidateId) && candidateId !== current ? candidateId : undefined,
  };
}

/** Moves the site-wide counter servers poll; returns its new value. */
export async function moveReleasesRevision(trx: Db): Promise<number> {
  const row = await trx.kysely
    .updateTable('release_revision')
    .set({ revision: sql<number>`revision + 1` })
    .where('id', '=', 1)
    .returning('revision')
    .executeTakeFirstOrThrow();
  return Number(row.revision);
}

/**
 * What changed an app's releases since `revision` (the first five changes), or, without one, its
 * latest three, in words, for a refused change.
 */
async function changesSince(db: Db, app: AppName, revision: number | undefined): Promise<string> {
  const query = db.kysely.selectFrom('release_events').selectAll().where('app', '=', app);
  const events =
    revision === undefined
      ? (await query.orderBy('seq', 'desc').limit(3).execute()).reverse()
      : await query.where('revision', '>', revision).orderBy('seq').limit(5).execute();
  if (events.length === 0) return `${app}'s releases changed`;
  return events.map((event) => `${event.action} ${event.release} by ${event.actor} at ${event.at}`).join('; ');
}

/** What an app's releases are, as an expectation is compared with. */
export interface ObservedState {
  revision: number;
  current: string | undefined;
  candidate: string | undefined;
}

const named = (id: string | null | undefined) => id ?? 'none';

/** How `observed` differs from what the caller expects, in words; undefined when it is as expected. */
function expectationMismatch(expect: ReleaseExpectation | undefined, observed: ObservedState): string | undefined {
  if (!expect) return undefined;
  const differences: string[] = [];
  if (expect.current !== undefined && (expect.current ?? undefined) !== observed.current) {
    differences.push(`its current release is ${named(observed.current)}, not ${named(expect.current)}`);
  }
  if (expect.candidate !== undefined && (expect.candidate ?? undefined) !== observed.candidate) {
    differences.push(`its candidate is ${named(observed.candidate)}, not ${named(expect.candidate)}`);
  }
  const revision = 'revision' in expect ? expect.revision : undefined;
  if (revision !== undefined && revision !== observed.revision) differences.push(`it is at revision ${observed.revision}, not ${revision}`);
  return differences.length > 0 ? differences.join(', ') : undefined;
}

/**
 * Why a change naming `expect` is refused on `observed`, with what changed; undefined when the
 * state is the one expected.
 */
export async function unexpectedState(db: Db, app: AppName, expect: ReleaseExpectation | undefined, observed: ObservedState): Promise<string | undefined> {
  const mismatch = expectationMismatch(expect, observed);
  if (mismatch === undefined) return undefined;
  return `${app}'s releases are not as this command expects: ${mismatch} (${await changesSince(db, app, expect && 'revision' in expect ? expect.revision : undefined)}).`;
}

/** The refusal of a change decided on a state that is gone. */
export function stateChangedError(refusal: string): ConcurrentChangeError {
  return new ConcurrentChangeError(`${refusal} Nothing was changed; look at the releases again before deciding.`);
}

/**
 * Applies a change as one transaction holding the database's write lock: it checks that the app
 * is still as the caller expects (`expect`) and at the revision the change was decided on (and
 * that what it relies on of other apps still holds), then writes the history, the candidate and the events, moves the app's revision
 * and the site-wide one. Of two changes decided on the same state, one wins and the other is
 * refused (ConcurrentChangeError) with what changed, leaving everything as the first left it.
 * Returns the app's new revision.
 */
export async function commitReleaseChange(db: Db, change: ReleaseChange): Promise<number> {
  const refusal = await db.dialect.withWriteLock(db.kysely, async (kysely) => {
    const trx: Db = { kysely, dialect: db.dialect };
    const stored = await readStoredState(trx, change.app);
    const unexpected = await unexpectedState(trx, change.app, change.expect, stored);
    if (unexpected) return unexpected;
    if (stored.revision !== change.startedAt) {
      return `${change.app}'s releases changed while this command ran (${await changesSince(trx, change.app, change.startedAt)}).`;
    }
    for (const other of change.reliesOn ?? []) {
      const now = await readStoredState(trx, other.app);
      if (now.current !== other.current || now.candidate !== other.candidate) {
        const what = now.current !== other.current ? `its current release is ${now.current ?? 'none'}` : `its candidate is ${now.candidate ?? 'none'}`;
        return `${other.app} changed while this command ran (${what} now), so the compatibility check must run again.`;
      }
    }
    const at = change.at.toISOString();
    const history = change.history ?? stored.history;
    const revision = stored.revision + 1;
    await trx.kysely
      .insertInto('release_apps')
      .values({
        app: change.app,
        history: JSON.stringify(history),
        candidate: change.candidate === undefined ? stored.candidateText : change.candidate && JSON.stringify(change.candidate),
        revision,
      })
      .onConflict((conflict) =>
        conflict.column('app').doUpdateSet((eb) => ({
          history: eb.ref('excluded.history'),
          candidate: eb.ref('excluded.candidate'),
          revision: eb.ref('excluded.revision'),
        })),
      )
      .execute();
    if (change.forget && change.forget.length > 0) {
      await trx.kysely.deleteFrom('releases').where('app', '=', change.app).where('id', 'in', change.forget).execute();
    }
    // When it stops being current starts the skew window pruning keeps a release for.
    const forgotten = new Set(change.forget);
    const current = currentOf(history, new Set([...stored.stored].filter((id) => !forgotten.has(id))));
    if (current !== stored.current) {
      if (stored.current) await trx.kysely.updateTable('releases').set({ current_until: at }).where('app', '=', change.app).where('id', '=', stored.current).execute();
      if (current) await trx.kysely.updateTable('releases').set({ current_until: null }).where('app', '=', change.app).where('id', '=', current).execute();
    }
    await moveReleasesRevision(trx);
    for (const event of change.events) {
      await trx.kysely
        .insertInto('release_events')
        .values({ app: change.app, release: event.release, action: event.action, reason: event.reason, actor: change.actor, at, revision })
        .execute();
    }
    return undefined;
  });
  if (refusal) throw stateChangedError(refusal);
  return change.startedAt + 1;
}
