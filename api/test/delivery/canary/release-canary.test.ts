import { parseReleaseArgs } from '../../../src/delivery/cli/release';
import { formatReleaseResult } from '../../../src/delivery/cli/release-text';
import { UsageError } from '../../../src/platform/cli/parse-cli-args';
import {
  abort,
  canary,
  decideCandidate,
  DEFAULT_MIN_VIEWS,
  describeCanary,
  list,
  promote,
  promoteCandidate,
  publish,
  RefusedError,
  rollback,
  stage,
  type CanaryOptions,
  type ListResult,
} from '../../../src/delivery/releases/commands';
import { readBuildFolder } from '../../../src/delivery/releases/build-folder';
import * as repository from '../../../src/delivery/releases/release-repository';
import { pruneReleases, SKEW_WINDOW_MS } from '../../../src/delivery/releases/prune';
import { loadAppReleases, readReleasesRevision } from '../../../src/delivery/releases/release-repository';
import type { ReleaseState } from '../../../src/delivery/releases/state';
import { CURRENT_VERSIONS, createReleaseFixture, publishFixture, type FixtureBuild, type ReleaseFixture } from '../../helpers/releases';

// Progressive delivery in process: staged releases, canaries (their candidate, its promotion,
// abort, rollback and automatic decisions), what pruning spares for them, and the command line
// that starts them. commands.test.ts covers publish, rollback and promote of plain releases.

const HOUR = 3_600_000;
const ACTOR = 'cli:test@fixture';

let fixture: ReleaseFixture;
beforeEach(async () => {
  fixture = await createReleaseFixture();
});
afterEach(() => fixture.cleanup());

const later = (ms: number) => fixture.later(ms);

const ISO_TIME = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as string;
// A build's id carries its build time (its files' mtime without a stamp): the same build written
// twice is found to be the same release only when its stamp fixes that time.
const STAMP = '2026-11-22T06:15:00.000Z';
const previewUrl = (release: string) => `https://preview.example/?release=${release}`;
/** Hand-promoted candidate for half the visitors, judged after the default page views. */
const HALF: Pick<CanaryOptions, 'share' | 'minViews' | 'promoteAfter'> = { share: 50, minViews: 100, promoteAfter: null };

const release = (app: string, build: FixtureBuild = {}, keep?: number) => publishFixture(fixture, app, build, keep);
const state = async (app: string): Promise<ReleaseState> => (await loadAppReleases(fixture.db, app)).state;
const keptIds = async (app: string) => (await loadAppReleases(fixture.db, app)).releases.map((kept) => kept.id).sort();
/** `[release, action]` of the app's events, oldest first. */
const actions = async (app: string) => (await state(app)).events.map((entry) => [entry.release, entry.action]);
/** An event as recorded by the fixture's actor. */
const event = (release: string, action: string, reason: string) => ({ at: ISO_TIME, release, action, reason, actor: ACTOR });
const published = (release: string) => event(release, 'published', expect.stringMatching(/^published from \S+ and made current$/) as string);

/** Starts a canary of a new build of the app and returns the candidate's id. */
async function startCanary(app: string, build: FixtureBuild, options: Partial<CanaryOptions> = {}): Promise<string> {
  await canary(fixture.context, app, { ...HALF, build: await fixture.buildOf(app, build), ...options });
  const { candidate } = await state(app);
  if (!candidate) throw new Error('no candidate');
  return candidate.id;
}

/** Stages a new build of the app and returns the staged release's id. */
async function stageBuild(app: string, build: FixtureBuild): Promise<string> {
  await stage(fixture.context, app, await fixture.buildOf(app, build), previewUrl);
  const staged = (await state(app)).events.filter((entry) => entry.action === 'staged').at(-1);
  if (!staged) throw new Error('nothing staged');
  return staged.release;
}

/** The error message of a command that must be refused. */
async function refusedWith(attempt: Promise<unknown>): Promise<string> {
  const error: unknown = await attempt.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof RefusedError)) throw new Error(`expected a RefusedError, got ${String(error)}`);
  return error.message;
}

/** Release id → the note `--list` prints after it ('' for none). */
function notes(result: ListResult): Record<string, string> {
  const listing = formatReleaseResult(result);
  const header = listing[1] ?? '';
  // The note follows the PUBLISHED column (24 wide) and two spaces.
  const noteAt = header.indexOf('PUBLISHED') + 24 + 2;
  const rows = listing.slice(2).filter((line) => /^[* ] /.test(line));
  return Object.fromEntries(rows.map((line) => [line.slice(2).split(' ')[0], line.slice(noteAt)]));
}

describe('stage', () => {
  it('publishes a release that stays out of sight but for its preview link', async () => {
    const current = await release('blog', { label: 'a' });
    const dist = fixture.build('blog', { label: 's' });
    const output = await stage(fixture.context, 'blog', await readBuildFolder(dist), previewUrl);
    const staged = (await keptIds('blog')).find((id) => id !== current) ?? '';
    expect(staged).not.toBe('');
    expect(output).toMatchObject({ kind: 'stage', build: { release: { id: staged }, created: true, source: dist }, alreadyCurrent: false, pruned: [] });
    expect(formatReleaseResult(output)).toEqual([
      `Published blog release ${staged} from ${dist}`,
      `blog release ${staged} is staged: no visitor gets it`,
      `Preview it in one browser (valid 24 h): https://preview.example/?release=${staged}`,
    ]);
    expect(await state('blog')).toEqual({ history: [current], events: [published(current), event(staged, 'staged', 'published for preview only')], revision: 2 });
    expect((await loadAppReleases(fixture.db, 'blog')).current?.id).toBe(current);
    expect(notes(await list(fixture.context, 'blog'))).toEqual({ [current]: 'current', [staged]: 'staged (preview only)' });
  });

  it('records nothing when the build is the current release already', async () => {
    const current = await release('blog', { label: 'a', stamp: STAMP });
    const before = await state('blog');
    const siteRevision = await readReleasesRevision(fixture.db);
    const output = await stage(fixture.context, 'blog', await fixture.buildOf('blog', { label: 'a', stamp: STAMP }), previewUrl);
    expect(output).toMatchObject({ build: { release: { id: current }, created: false }, alreadyCurrent: true });
    expect(formatReleaseResult(output)).toEqual([
      `blog release ${current} already holds this build`,
      `${current} is the current blog release: every visitor gets it already`,
      `Preview it in one browser (valid 24 h): https://preview.example/?release=${current}`,
    ]);
    expect(await state('blog')).toEqual(before);
    expect(await readReleasesRevision(fixture.db)).toBe(siteRevision);
  });

  it('stops marking a staged release once it has been current', async () => {
    const first = await release('blog', { label: 'a' });
    const staged = await stageBuild('blog', { label: 's' });
    await promote(fixture.context, 'blog', staged);
    const previous = await release('blog', { label: 'b' });
    const current = await release('blog', { label: 'd' });
    expect(notes(await list(fixture.context, 'blog'))).toEqual({ [current]: 'current', [previous]: 'previous (--rollback)', [staged]: '', [first]: '' });
  });
});

describe('canary', () => {
  it('publishes a build as the candidate for a share of visitors, judged by its rules', async () => {
    const current = await release('blog', { label: 'a' });
    const dist = fixture.build('blog', { label: 'c' });
    const output = await canary(fixture.context, 'blog', { build: await readBuildFolder(dist), share: 50, minViews: 100, promoteAfter: 500 });
    const { candidate, history, events } = await state('blog');
    const id = candidate?.id ?? '';
    expect(id).not.toBe(current);
    expect(output).toMatchObject({ kind: 'canary', build: { release: { id }, created: true, source: dist }, candidate: { id, share: 50 }, current: { id: current } });
    expect(formatReleaseResult(output)).toEqual([
      `Published blog release ${id} from ${dist}`,
      `blog release ${id} is the candidate for 50 % of visitors, judged after 100 page views, promoted after 500 healthy page views; the others get ${current}`,
    ]);
    expect(candidate).toEqual({ id, share: 50, minViews: 100, promoteAfter: 500, since: ISO_TIME });
    expect(history).toEqual([current]);
    expect(events).toEqual([published(current), event(id, 'canary', '50 % of visitors, judged after 100 page views, promoted after 500 healthy page views')]);
    expect(notes(await list(fixture.context, 'blog'))).toEqual({ [current]: 'current', [id]: 'candidate, 50 % of visitors' });
    // The candidate is kept, never current.
    expect((await loadAppReleases(fixture.db, 'blog')).current?.id).toBe(current);
  });

  it('describes a candidate a person promotes', () => {
    expect(describeCanary({ share: 12.5, minViews: 10, promoteAfter: null })).toBe('12.5 % of visitors, judged after 10 page views, promoted by hand');
  });

  it('takes a kept release by id, and says visitors get dist when nothing is current', async () => {
    const staged = await stageBuild('blog', { label: 's' });
    const output = await canary(fixture.context, 'blog', { ...HALF, id: staged, share: 5 });
    expect(output).toMatchObject({ build: undefined, candidate: { id: staged }, current: undefined });
    expect(formatReleaseResult(output)).toEqual([`blog release ${staged} is the candidate for ${describeCanary({ ...HALF, share: 5 })}; the others get dist`]);
    expect((await state('blog')).candidate).toMatchObject({ id: staged, share: 5 });
    expect(notes(await list(fixture.context, 'blog'))).toEqual({ [staged]: 'candidate, 5 % of visitors' });
  });

  it('changes the share and rules of the running candidate but keeps the time it started', async () => {
    await release('blog', { label: 'a' });
    const id = await startCanary('blog', { label: 'c' }, { share: 10, promoteAfter: 300 });
    const started = (await state('blog')).candidate?.since;
    await canary(fixture.context, 'blog', { id, share: 60, minViews: 20, promoteAfter: null });
    const { candidate, events } = await state('blog');
    expect(candidate).toEqual({ id, share: 60, minViews: 20, promoteAfter: null, since: started });
    expect(events.slice(1).map((entry) => [entry.action, entry.reason])).toEqual([
      ['canary', '10 % of visitors, judged after 100 page views, promoted after 300 healthy page views'],
      ['canary', '60 % of visitors, judged after 20 page views, promoted by hand'],
    ]);
    expect(events[2]!.at > started!).toBe(true);
  });

  it('refuses another candidate while one runs', async () => {
    const current = await release('blog', { label: 'a' });
    const running = await startCanary('blog', { label: 'c' });
    const expected = `blog release ${running} is the candidate now: promote it (--promote) or drop it (--abort) first.`;
    const refusal = await refusedWith(canary(fixture.context, 'blog', { ...HALF, build: await fixture.buildOf('blog', { label: 'd' }) }));
    const other = (await keptIds('blog')).find((id) => id !== current && id !== running) ?? '';
    // The new build is kept, and the refusal says so.
    expect(refusal).toBe(`${expected} Release ${other} is kept.`);
    expect(await refusedWith(canary(fixture.context, 'blog', { ...HALF, id: other }))).toBe(expected);
    const after = await state('blog');
    expect(after.candidate?.id).toBe(running);
    expect(after.events.map((entry) => entry.action)).toEqual(['published', 'canary']);
  });

  it('refuses the current release and an unknown id', async () => {
    const current = await release('blog', { label: 'a', stamp: STAMP });
    const before = await state('blog');
    expect(await refusedWith(canary(fixture.context, 'blog', { ...HALF, id: current }))).toBe(`${current} is the current blog release: every visitor gets it already.`);
    // The same build as the current one is found to be that release.
    expect(await refusedWith(canary(fixture.context, 'blog', { ...HALF, build: await fixture.buildOf('blog', { label: 'a', stamp: STAMP }) }))).toBe(
      `${current} is the current blog release: every visitor gets it already.`,
    );
    expect(await refusedWith(canary(fixture.context, 'blog', { ...HALF, id: 'nope' }))).toBe(`There is no blog release nope. Kept releases: ${current}.`);
    expect(await state('blog')).toEqual(before);
    expect(before).toEqual({ history: [current], events: [published(current)], revision: 1 });
  });

  it('refuses a remote candidate that needs a singleton version the current shell does not provide', async () => {
    const message = await refusedWith(canary(fixture.context, 'blog', { ...HALF, build: await fixture.buildOf('blog', { label: 'c', required: { react: '^20.0.0' } }) }));
    const [refused] = await keptIds('blog');
    expect(message).toBe(
      `Refused: blog release ${refused} needs react ^20.0.0, but the current shell (release dist) provides react 19.3.1. ` +
        `The current blog release stays dist. Release ${refused} is kept.`,
    );
    expect(await state('blog')).toEqual({ history: [], events: [], revision: 0 });
  });

  it("refuses a remote candidate the shell's candidate cannot run", async () => {
    // Shell 19.4 suits every remote's ^19.3.1; a blog pinned to ~19.3.0 suits only the current shell.
    const shell = await startCanary('shell', { label: 'next', versions: { ...CURRENT_VERSIONS, react: '19.4.0' } });
    const message = await refusedWith(canary(fixture.context, 'blog', { ...HALF, build: await fixture.buildOf('blog', { label: 'c', required: { react: '~19.3.0' } }) }));
    const [blog] = await keptIds('blog');
    expect(message).toBe(
      `Refused: blog release ${blog} needs react ~19.3.0, but the candidate shell (release ${shell}) provides react 19.4.0. ` +
        `The current blog release stays dist. Release ${blog} is kept.`,
    );
    expect((await state('blog')).candidate).toBeUndefined();
    // Without the shell's candidate the same blog release is accepted.
    await abort(fixture.context, 'shell');
    await canary(fixture.context, 'blog', { ...HALF, id: blog ?? '' });
    expect((await state('blog')).candidate?.id).toBe(blog);
  });
});

describe('promote, abort and rollback', () => {
  it('promotes the candidate: it becomes current and is no longer the candidate', async () => {
    const current = await release('blog', { label: 'a' });
    const candidate = await startCanary('blog', { label: 'c' });
    expect(formatReleaseResult(await promoteCandidate(fixture.context, 'blog'))).toEqual([`blog release ${candidate} is now current (was ${current})`]);
    const after = await state('blog');
    expect(after.history).toEqual([current, candidate]);
    expect(after.candidate).toBeUndefined();
    expect(after.events.at(-1)).toEqual(event(candidate, 'promoted', 'promoted by hand'));
    expect(notes(await list(fixture.context, 'blog'))).toEqual({ [candidate]: 'current', [current]: 'previous (--rollback)' });
    expect(await refusedWith(promoteCandidate(fixture.context, 'blog'))).toBe(
      'blog has no candidate to promote: name a release (--promote <id>) or start a canary (--canary <percent>).',
    );
  });

  it('never makes a candidate current that an abort dropped after the promotion read it', async () => {
    const current = await release('blog', { label: 'a' });
    const candidate = await startCanary('blog', { label: 'c' });
    // The abort lands right after the promotion read the releases (two reads used to leave the
    // second, which found the dropped candidate still kept, to decide).
    const read = repository.loadAppReleases;
    jest.spyOn(repository, 'loadAppReleases').mockImplementationOnce(async (...args) => {
      const seen = await read(...args);
      await abort({ ...fixture.context, actor: 'token:ci-blog' }, 'blog');
      return seen;
    });
    try {
      expect(await refusedWith(promoteCandidate(fixture.context, 'blog'))).toMatch(
        new RegExp(`^blog's releases changed while this command ran \\(aborted ${candidate} by token:ci-blog at \\S+\\)\\. Nothing was changed`),
      );
    } finally {
      jest.restoreAllMocks();
    }
    expect(await state('blog')).toMatchObject({ history: [current] });
    expect((await state('blog')).candidate).toBeUndefined();
  });

  it('records a promotion by id as the end of the canary only when that id is the candidate', async () => {
    const first = await release('blog', { label: 'a' });
    const second = await release('blog', { label: 'b' });
    const candidate = await startCanary('blog', { label: 'c' });
    await promote(fixture.context, 'blog', first);
    expect(await state('blog')).toMatchObject({ candidate: { id: candidate } });
    expect(await actions('blog')).toEqual([
      [first, 'published'],
      [second, 'published'],
      [candidate, 'canary'],
      [first, 'promoted'],
    ]);

    await promote(fixture.context, 'blog', candidate);
    const after = await state('blog');
    expect(after.candidate).toBeUndefined();
    expect(after.events.slice(2).map((entry) => [entry.release, entry.action, entry.reason])).toEqual([
      [candidate, 'canary', describeCanary(HALF)],
      [first, 'promoted', 'promoted by hand'],
      [candidate, 'promoted', 'promoted by hand'],
    ]);
  });

  it('drops the candidate on abort, leaving the current release and the candidate kept', async () => {
    const current = await release('blog', { label: 'a' });
    const candidate = await startCanary('blog', { label: 'c' });
    const started = (await state('blog')).candidate?.since ?? '';
    expect(formatReleaseResult(await abort(fixture.context, 'blog'))).toEqual([`Dropped blog candidate ${candidate}: every visitor gets ${current}`]);
    const after = await state('blog');
    expect(after.history).toEqual([current]);
    expect(after.candidate).toBeUndefined();
    expect(after.events.at(-1)).toEqual(event(candidate, 'aborted', 'dropped by hand'));
    expect(await keptIds('blog')).toContain(candidate);
    expect(await refusedWith(abort(fixture.context, 'blog'))).toBe('blog has no candidate to drop.');
    // A canary started again is a new one: judged from its own start.
    await canary(fixture.context, 'blog', { ...HALF, id: candidate });
    expect(((await state('blog')).candidate?.since ?? '') > started).toBe(true);
  });

  it('rolls the candidate back, not the current release, while a canary runs', async () => {
    const first = await release('blog', { label: 'a' });
    const current = await release('blog', { label: 'b' });
    const candidate = await startCanary('blog', { label: 'c' });
    const output = await rollback(fixture.context, 'blog');
    expect(output).toMatchObject({ kind: 'rollback', app: 'blog', from: { id: candidate }, to: { id: current }, candidate: true });
    expect(formatReleaseResult(output)).toEqual([`Rolled back blog candidate ${candidate}: every visitor gets ${current}`]);
    const after = await state('blog');
    expect(after.history).toEqual([first, current]);
    expect(after.candidate).toBeUndefined();
    expect(after.events.at(-1)).toEqual(event(candidate, 'rolled_back', 'rolled back by hand'));
    expect(await keptIds('blog')).toContain(candidate);
    // With no canary running, the next rollback is of the current release.
    expect(await rollback(fixture.context, 'blog')).toMatchObject({ from: { id: current }, to: { id: first }, candidate: false });
  });
});

describe('decideCandidate', () => {
  it('rolls the candidate back once, and does nothing for a candidate that is gone', async () => {
    const current = await release('blog', { label: 'a' });
    const candidate = await startCanary('blog', { label: 'c' });
    const reason = 'error rate 4 % against 1 % of the current release';
    const site = { ...fixture.context, actor: 'site' };
    const decided = await decideCandidate(site, 'blog', candidate, 'rolled_back', reason);
    expect(decided).toEqual({ at: ISO_TIME, release: candidate, action: 'rolled_back', reason, actor: 'site' });
    const after = await state('blog');
    expect(after.history).toEqual([current]);
    expect(after.candidate).toBeUndefined();
    expect(after.events.at(-1)).toEqual(decided);

    expect(await decideCandidate(site, 'blog', candidate, 'rolled_back', reason)).toBeUndefined();
    expect(await state('blog')).toEqual(after);
  });

  it('leaves a newer candidate alone when deciding about an older one', async () => {
    await release('blog', { label: 'a' });
    const older = await startCanary('blog', { label: 'c' });
    await abort(fixture.context, 'blog');
    const newer = await startCanary('blog', { label: 'd' });
    const before = await state('blog');
    expect(await decideCandidate(fixture.context, 'blog', older, 'promoted', 'healthy')).toBeUndefined();
    expect(await state('blog')).toEqual(before);
    expect(before.candidate?.id).toBe(newer);
  });

  it('promotes a healthy candidate', async () => {
    const current = await release('blog', { label: 'a' });
    const candidate = await startCanary('blog', { label: 'c' });
    const decided = await decideCandidate(fixture.context, 'blog', candidate, 'promoted', 'healthy after 500 page views');
    expect(decided).toEqual(event(candidate, 'promoted', 'healthy after 500 page views'));
    const after = await state('blog');
    expect(after.history).toEqual([current, candidate]);
    expect(after.candidate).toBeUndefined();
    expect(after.events.at(-1)).toEqual(decided);
  });

  it('rolls back instead when the compatibility gate refuses the promotion', async () => {
    // A blog pinned to React ~19.3.0 runs as the candidate; meanwhile a shell providing 19.4.0
    // became current (published by a context that loads the blog from elsewhere, so unchecked).
    const candidate = await startCanary('blog', { label: 'c', required: { react: '~19.3.0' } });
    const shell = (await publish({ ...fixture.context, remoteUrls: { blog: 'https://b.example/m.json' } }, 'shell', await fixture.buildOf('shell', { versions: { ...CURRENT_VERSIONS, react: '19.4.0' } }))).build.release.id;
    const decided = await decideCandidate(fixture.context, 'blog', candidate, 'promoted', 'healthy after 500 page views');
    const refusal = `Refused: blog release ${candidate} needs react ~19.3.0, but the current shell (release ${shell}) provides react 19.4.0. The current blog release stays dist.`;
    expect(decided).toEqual(event(candidate, 'rolled_back', refusal));
    const after = await state('blog');
    expect(after.history).toEqual([]);
    expect(after.candidate).toBeUndefined();
    expect(after.events.at(-1)).toEqual(decided);
  });
});

describe('pruning', () => {
  it('never deletes the candidate nor a release staged within the preview link lifetime', async () => {
    const first = await release('blog', { label: 'a' });
    later(SKEW_WINDOW_MS + HOUR);
    const second = await release('blog', { label: 'b' });
    // first stopped being current a skew window ago: only the rules below could keep it.
    later(SKEW_WINDOW_MS + HOUR);
    const staged = await stageBuild('blog', { label: 's' });
    const candidate = await startCanary('blog', { label: 'c' });
    const third = await release('blog', { label: 'd' }, 1);
    expect(await keptIds('blog')).toEqual([second, third, staged, candidate].sort());
    expect(await fixture.context.store.list(`blog/${first}/`)).toEqual([]);
    // Pruning changed the history alone: the canary and its events are still there.
    const after = await state('blog');
    expect(after.history).toEqual([second, third]);
    expect(after.candidate?.id).toBe(candidate);
    expect(await actions('blog')).toEqual([
      [first, 'published'],
      [second, 'published'],
      [staged, 'staged'],
      [candidate, 'canary'],
      [third, 'published'],
      [first, 'pruned'],
    ]);
  });

  it('deletes a staged release once its preview links have expired', async () => {
    const staged = await stageBuild('blog', { label: 's' });
    const stagedAt = Date.parse((await state('blog')).events[0]!.at);
    await release('blog', { label: 'a' });
    const current = await release('blog', { label: 'b' });
    const prune = (at: number) => pruneReleases(fixture.db, fixture.context.store, 'blog', 1, ACTOR, at);
    expect(await prune(stagedAt + 23 * HOUR)).toEqual([]);
    expect(await keptIds('blog')).toContain(staged);
    const removed = await prune(stagedAt + 25 * HOUR);
    expect(removed.map((gone) => gone.id)).toEqual([staged]);
    expect(await fixture.context.store.list(`blog/${staged}/`)).toEqual([]);
    expect((await loadAppReleases(fixture.db, 'blog')).current?.id).toBe(current);
  });

  it('keeps the candidate however old its canary is', async () => {
    const candidate = await startCanary('blog', { label: 'c' });
    for (const label of ['a', 'b', 'd']) await release('blog', { label });
    const removed = await pruneReleases(fixture.db, fixture.context.store, 'blog', 1, ACTOR, Date.parse('2030-01-01T00:00:00Z'));
    expect(removed).toHaveLength(1);
    expect(await keptIds('blog')).toContain(candidate);
    expect((await state('blog')).candidate?.id).toBe(candidate);
  });
});

describe('the state across other commands', () => {
  it('keeps the candidate and the events through a publish', async () => {
    const first = await release('blog', { label: 'a' });
    const candidate = await startCanary('blog', { label: 'c' });
    const second = await release('blog', { label: 'b' });
    const after = await state('blog');
    expect(after.history).toEqual([first, second]);
    expect(after.candidate).toMatchObject({ id: candidate, share: 50 });
    expect(after.events).toEqual([published(first), event(candidate, 'canary', describeCanary(HALF)), published(second)]);
    expect(notes(await list(fixture.context, 'blog'))).toEqual({ [second]: 'current', [candidate]: 'candidate, 50 % of visitors', [first]: 'previous (--rollback)' });
  });

  it('ends the canary when its candidate is published as the current release', async () => {
    await release('blog', { label: 'a' });
    const candidate = await startCanary('blog', { label: 'c', stamp: STAMP });
    await publish(fixture.context, 'blog', await fixture.buildOf('blog', { label: 'c', stamp: STAMP }));
    const after = await state('blog');
    expect(after.history.at(-1)).toBe(candidate);
    expect(after.candidate).toBeUndefined();
    expect(after.events.at(-1)).toEqual(event(candidate, 'published', expect.stringMatching(/^published from .* and made current$/) as string));
  });
});

describe('parseReleaseArgs', () => {
  const LOCAL = { kind: 'local' };

  /** The message of the UsageError parsing `argv` throws. */
  function usageMessage(argv: string[]): string {
    try {
      parseReleaseArgs(argv);
    } catch (error) {
      if (error instanceof UsageError) return error.message;
      throw error;
    }
    throw new Error('no UsageError');
  }

  it('reads a canary with its rules', () => {
    expect(parseReleaseArgs(['blog', '--canary', '12.5', '--min-views', '10', '--promote-after', '20'])).toEqual({
      app: 'blog',
      target: LOCAL,
      action: { kind: 'canary', share: 12.5, minViews: 10, promoteAfter: 20 },
    });
    expect(parseReleaseArgs(['shell', '--canary', '10%', '--id', 'r1', '--keep', '3'])).toEqual({
      app: 'shell',
      target: LOCAL,
      action: { kind: 'canary', id: 'r1', share: 10, minViews: 100, promoteAfter: null, keep: 3 },
    });
  });

  it('judges after 100 page views and never promotes by itself unless told', () => {
    expect(DEFAULT_MIN_VIEWS).toBe(100);
    const { action } = parseReleaseArgs(['blog', '--canary', '100', '--dist', 'out']);
    expect(action).toEqual({ kind: 'canary', dist: 'out', share: 100, minViews: 100, promoteAfter: null });
  });

  it('reads --stage, --abort and --promote with an id', () => {
    expect(parseReleaseArgs(['blog', '--stage', '--dist', 'x'])).toEqual({ app: 'blog', target: LOCAL, action: { kind: 'stage', dist: 'x' } });
    expect(parseReleaseArgs(['blog', '--abort'])).toEqual({ app: 'blog', target: LOCAL, action: { kind: 'abort' } });
    expect(parseReleaseArgs(['blog', '--promote', 'r1'])).toEqual({ app: 'blog', target: LOCAL, action: { kind: 'promote', id: 'r1' } });
  });

  it('reads a bare --promote as the candidate, before another option too', () => {
    expect(parseReleaseArgs(['blog', '--promote'])).toEqual({ app: 'blog', target: LOCAL, action: { kind: 'promote', id: undefined } });
    expect(parseReleaseArgs(['--promote', '--', 'blog'])).toEqual({ app: 'blog', target: LOCAL, action: { kind: 'promote', id: undefined } });
    expect(() => parseReleaseArgs(['blog', '--promote', '--promote', 'r1'])).toThrow('--promote is given twice');
  });

  it.each([
    [['blog', '--canary', '0'], '--canary must be a percentage of visitors above 0 and up to 100, such as 10 or 12.5, got "0"'],
    [['blog', '--canary', '101'], '--canary must be a percentage of visitors above 0 and up to 100, such as 10 or 12.5, got "101"'],
    [['blog', '--canary', 'abc'], '--canary must be a percentage of visitors above 0 and up to 100, such as 10 or 12.5, got "abc"'],
    [['blog', '--canary', '10', '--dist', 'x', '--id', 'r1'], 'Choose one of --dist, --id'],
    [['blog', '--canary', '10', '--min-views', '0'], '--min-views must be a whole number of at least 1, got "0"'],
    [['blog', '--canary', '10', '--promote-after', '2.5'], '--promote-after must be a whole number of at least 1, got "2.5"'],
    [['blog', '--id', 'r1'], '--id only applies to --canary'],
    [['blog', '--stage', '--min-views', '10'], '--min-views only applies to --canary'],
    [['blog', '--promote-after', '10'], '--promote-after only applies to --canary'],
    [['blog', '--stage', '--canary', '10'], 'Choose one of --stage, --canary'],
    [['blog', '--promote', 'r1', '--abort'], 'Choose one of --promote, --abort'],
    [['blog', '--abort', '--dist', 'x'], '--dist only applies when publishing'],
  ])('refuses %j: %s', (argv, message) => {
    expect(usageMessage(argv)).toBe(message);
  });
});
