import { REMOTE_NAMES } from '@agency/shared';
import type { ObjectStore } from '../../../src/platform/object-store/object-store';
import { canary, promote, publish, RefusedError, rollback, stage, type ReleaseContext } from '../../../src/delivery/releases/commands';
import { checkCompatibility } from '../../../src/delivery/releases/compat';
import { commitReleaseChange, type ReleaseChange } from '../../../src/delivery/releases/release-change';
import { loadAppReleases, readReleasesRevision } from '../../../src/delivery/releases/release-repository';
import { ConcurrentChangeError } from '../../../src/delivery/releases/refused-error';
import { createReleaseFixture, CURRENT_VERSIONS, publishFixture, type FixtureBuild, type ReleaseFixture } from '../../helpers/releases';

// Every change of an app's releases is one transaction that checks the state it was decided on:
// of two changes decided on the same state one wins, the other is refused with what changed.
// (This replaces the lock file every release command held while releases lived in a folder.)

let fixture: ReleaseFixture;
beforeEach(async () => (fixture = await createReleaseFixture()));
afterEach(() => fixture.cleanup());

const release = (app: string, build: FixtureBuild = {}) => publishFixture(fixture, app, build);
const state = (app: string) => loadAppReleases(fixture.db, app);
const AT = new Date('2026-02-01T10:00:00.000Z');
const previewUrl = (id: string) => `https://preview.example/?release=${id}`;

/** A change of the blog decided on `startedAt`. */
function change(startedAt: number, fields: Partial<ReleaseChange> = {}): ReleaseChange {
  return { app: 'blog', startedAt, events: [], actor: 'cli:test@fixture', at: AT, ...fields };
}

/** The ConcurrentChangeError a change that must be refused throws. */
async function refusal(attempt: Promise<unknown>): Promise<ConcurrentChangeError> {
  const error: unknown = await attempt.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof ConcurrentChangeError)) throw new Error(`expected a ConcurrentChangeError, got ${String(error)}`);
  return error;
}

/**
 * The fixture's store, but its reads wait while `hold` is armed: a command using it stops in its
 * compatibility check (which reads manifests), after it read the state it decides on.
 */
function holdingStore() {
  const { store } = fixture.context;
  let held: { reached: () => void; go: Promise<void> } | undefined;
  const holding: ObjectStore = {
    location: store.location,
    put: (key, body) => store.put(key, body),
    async get(key) {
      const hold = held;
      if (hold) {
        held = undefined;
        hold.reached();
        await hold.go;
      }
      return store.get(key);
    },
    size: (key) => store.size(key),
    list: (prefix) => store.list(prefix),
    deletePrefix: (prefix) => store.deletePrefix(prefix),
    delete: (key) => store.delete(key),
  };
  /** Arms the hold; resolves once a read waits, with the function that lets it go on. */
  function hold(): Promise<() => void> {
    let go!: () => void;
    const gone = new Promise<void>((resolve) => (go = resolve));
    return new Promise((reached) => (held = { reached: () => reached(go), go: gone }));
  }
  return { store: holding, hold };
}

describe('two changes decided on the same state', () => {
  it('lets the first win and refuses the second, naming what changed, leaving what the first left', async () => {
    const a = await release('blog', { label: 'a' });
    const b = await release('blog', { label: 'b' });
    const decidedOn = (await state('blog')).state.revision;

    // A person rolls back to a while a token's CI starts a canary of a: both start from the same state.
    await commitReleaseChange(fixture.db, change(decidedOn, { history: [a], events: [{ release: b, action: 'rolled_back', reason: `rolled back by hand to ${a}` }], actor: 'cli:olena@laptop' }));
    const afterFirst = await state('blog');
    const siteRevision = await readReleasesRevision(fixture.db);

    const candidate = { id: a, share: 10, minViews: 1, promoteAfter: null, since: AT.toISOString() };
    const error = await refusal(
      commitReleaseChange(fixture.db, change(decidedOn, { history: [a, b, b], candidate, events: [{ release: a, action: 'canary', reason: 'ten percent' }], actor: 'token:ci-blog' })),
    );
    expect(error).toBeInstanceOf(RefusedError);
    expect(error.message).toBe(
      `blog's releases changed while this command ran (rolled_back ${b} by cli:olena@laptop at 2026-02-01T10:00:00.000Z). Nothing was changed; look at the releases again before deciding.`,
    );
    // Everything is as the first change left it: history, candidate, events, revisions.
    expect(await state('blog')).toEqual(afterFirst);
    expect(await readReleasesRevision(fixture.db)).toBe(siteRevision);
    expect(afterFirst.current?.id).toBe(a);
    expect(afterFirst.candidate).toBeUndefined();

    // Decided again on the state there is now, it lands.
    const now = afterFirst.state.revision;
    expect(await commitReleaseChange(fixture.db, change(now, { candidate: { ...candidate, id: b }, events: [{ release: b, action: 'canary', reason: 'ten percent' }] }))).toBe(now + 1);
    expect((await state('blog')).candidate?.id).toBe(b);
  });

  it('refuses a command when another one changed the app between its reading and its writing', async () => {
    const a = await release('blog', { label: 'a' });
    const b = await release('blog', { label: 'b' });
    const { store, hold } = holdingStore();
    // A promotion of a reads the state, then waits in its compatibility check ...
    const held = hold();
    const promotion = promote({ ...fixture.context, store, actor: 'token:ci-blog' }, 'blog', a);
    const go = await held;
    // ... while a person rolls back to a.
    await rollback({ ...fixture.context, actor: 'cli:olena@laptop' }, 'blog');
    const afterRollback = await state('blog');
    go();
    const error = await refusal(promotion);
    expect(error.message).toMatch(new RegExp(`^blog's releases changed while this command ran \\(rolled_back ${b.replace(/\./g, '\\.')} by cli:olena@laptop at \\S+\\)\\. `));
    expect(await state('blog')).toEqual(afterRollback);
    expect(afterRollback.history).toEqual([a]);
    // Run again, it finds a current already.
    expect(await promote({ ...fixture.context, actor: 'token:ci-blog' }, 'blog', a)).toMatchObject({ alreadyCurrent: true });
  });

  it('does not refuse a change of one app for a change of another', async () => {
    await release('forms', { label: 'a' });
    const decidedOn = (await state('forms')).state.revision;
    await release('home');
    await release('blog');
    const b = await release('forms', { label: 'b' });
    expect((await state('forms')).state.revision).toBe(decidedOn + 1);
    expect((await state('forms')).current?.id).toBe(b);
  });
});

describe('a change that relies on another app', () => {
  // The blog accepts any axios 1.x or later, so a shell providing axios 2 passes against it; a
  // blog that needs ^1.21.1 (the dist shell's) does not. The other remotes are loaded from
  // elsewhere, so only the blog is checked.
  const remoteUrls = Object.fromEntries(REMOTE_NAMES.filter((name) => name !== 'blog').map((name) => [name, `https://${name}.example/m.json`]));
  const axios2 = { label: 'axios-2', versions: { ...CURRENT_VERSIONS, axios: '2.0.0' } };

  it("is refused when that app's current release changed after the compatibility check read it", async () => {
    const context: ReleaseContext = { ...fixture.context, remoteUrls };
    const loose = (await publish(context, 'blog', await fixture.buildOf('blog', { label: 'loose', required: { axios: '>=1.0.0' } }))).build.release.id;
    const shell = (await stage(context, 'shell', await fixture.buildOf('shell', axios2), previewUrl)).build.release.id;

    // Making the shell current is decided on the blog's current release as the gate read it ...
    const decidedOn = (await state('shell')).state.revision;
    const verdict = await checkCompatibility(context, { app: 'shell', release: shell });
    expect(verdict).toEqual({ refusal: undefined, reliesOn: [{ app: 'blog', current: loose, candidate: undefined }] });
    // ... then the blog changes: its new release needs axios ^1.21.1, which shell 2 does not provide.
    const strict = (await publish(context, 'blog', await fixture.buildOf('blog', { label: 'strict' }))).build.release.id;

    const error = await refusal(
      commitReleaseChange(fixture.db, { app: 'shell', startedAt: decidedOn, history: [shell], events: [{ release: shell, action: 'promoted', reason: 'promoted by hand' }], reliesOn: verdict.reliesOn, actor: 'cli:test@fixture', at: AT }),
    );
    expect(error.message).toBe(`blog changed while this command ran (its current release is ${strict} now), so the compatibility check must run again. Nothing was changed; look at the releases again before deciding.`);
    expect((await state('shell')).current).toBeUndefined();
    expect((await state('shell')).state.revision).toBe(decidedOn);
    // Checked again, the shell is refused.
    await expect(promote(context, 'shell', shell)).rejects.toThrow(/^Refused: shell release \S+ provides axios 2\.0\.0, but the current blog \(release \S+\) needs axios \^1\.21\.1\./);
  });

  it("is refused when that app's candidate changed", async () => {
    const context: ReleaseContext = { ...fixture.context, remoteUrls };
    await publish(context, 'blog', await fixture.buildOf('blog', { label: 'loose', required: { axios: '>=1.0.0' } }));
    const shell = (await stage(context, 'shell', await fixture.buildOf('shell', axios2), previewUrl)).build.release.id;
    const decidedOn = (await state('shell')).state.revision;
    const verdict = await checkCompatibility(context, { app: 'shell', release: shell });
    const candidate = (await canary(context, 'blog', { build: await fixture.buildOf('blog', { label: 'strict' }), share: 10, minViews: 10, promoteAfter: null })).candidate.id;
    const error = await refusal(commitReleaseChange(fixture.db, { app: 'shell', startedAt: decidedOn, history: [shell], events: [], reliesOn: verdict.reliesOn, actor: 'cli:test@fixture', at: AT }));
    expect(error.message).toMatch(`blog changed while this command ran (its candidate is ${candidate} now)`);
  });

  it('never lets a shell and a remote that each pass against what is current now both become current', async () => {
    const context: ReleaseContext = { ...fixture.context, remoteUrls };
    await publish(context, 'blog', await fixture.buildOf('blog', { label: 'loose', required: { axios: '>=1.0.0' } }));
    const shell = await fixture.buildOf('shell', axios2);
    const blog = await fixture.buildOf('blog', { label: 'strict' });
    const runs = [() => publish(context, 'shell', shell), () => publish(context, 'blog', blog)];
    const results = await Promise.allSettled(runs.map((run) => run()));
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const loser = results.findIndex((result) => result.status === 'rejected');
    // Refused by the gate (the winner was current when it checked) or by the commit (it was not yet).
    expect((results[loser] as PromiseRejectedResult).reason).toBeInstanceOf(RefusedError);
    // Run again, the loser meets the winner in the compatibility check and is refused.
    await expect(runs[loser]?.()).rejects.toThrow(/^Refused: /);
  });
});

describe('what a change records', () => {
  it('writes each event with its actor and the revision it made, and moves the site-wide revision', async () => {
    const a = await release('blog', { label: 'a' });
    const site = await readReleasesRevision(fixture.db);
    const decidedOn = (await state('blog')).state.revision;
    const revision = await commitReleaseChange(
      fixture.db,
      change(decidedOn, {
        events: [
          { release: a, action: 'staged', reason: 'one' },
          { release: a, action: 'canary', reason: 'two' },
        ],
        actor: 'token:ci-blog',
      }),
    );
    expect(revision).toBe(decidedOn + 1);
    expect(await readReleasesRevision(fixture.db)).toBe(site + 1);
    expect((await state('blog')).state.revision).toBe(revision);
    const rows = await fixture.db.kysely.selectFrom('release_events').selectAll().where('app', '=', 'blog').orderBy('seq').execute();
    expect(rows.map((row) => ({ ...row, seq: undefined, revision: Number(row.revision) }))).toEqual([
      { seq: undefined, app: 'blog', release: a, action: 'published', reason: expect.stringMatching(/^published from /) as string, actor: 'cli:test@fixture', at: expect.any(String) as string, revision: decidedOn },
      { seq: undefined, app: 'blog', release: a, action: 'staged', reason: 'one', actor: 'token:ci-blog', at: AT.toISOString(), revision },
      { seq: undefined, app: 'blog', release: a, action: 'canary', reason: 'two', actor: 'token:ci-blog', at: AT.toISOString(), revision },
    ]);
    expect((await state('blog')).events.slice(1)).toEqual([
      { at: AT.toISOString(), release: a, action: 'staged', reason: 'one', actor: 'token:ci-blog' },
      { at: AT.toISOString(), release: a, action: 'canary', reason: 'two', actor: 'token:ci-blog' },
    ]);
  });

  it('sets current_until on the release that stopped being current, and clears it on the one that is current again', async () => {
    const a = await release('blog', { label: 'a' });
    const b = await release('blog', { label: 'b' });
    const currentUntil = async () => Object.fromEntries((await state('blog')).releases.map((kept) => [kept.id, kept.currentUntil]));
    const bPublished = (await state('blog')).events.at(-1)!.at;
    expect(await currentUntil()).toEqual({ [a]: bPublished, [b]: undefined });

    // A change that leaves the current release alone leaves current_until alone.
    await commitReleaseChange(fixture.db, change((await state('blog')).state.revision, { events: [{ release: a, action: 'staged', reason: 'again' }] }));
    expect(await currentUntil()).toEqual({ [a]: bPublished, [b]: undefined });

    // Back to a: b stopped being current at this change, a is current again.
    await commitReleaseChange(fixture.db, change((await state('blog')).state.revision, { history: [a] }));
    expect(await currentUntil()).toEqual({ [a]: undefined, [b]: AT.toISOString() });
  });
});
