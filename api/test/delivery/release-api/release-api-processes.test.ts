import type { RemotesDocument } from '@agency/shared';
import { RELEASE_API_PATH } from '../../../src/delivery/release-api/release-api-routes';
import { packReleaseArchive } from '../../../src/delivery/release-api/release-archive';
import { createReleaseToken } from '../../../src/delivery/release-api/release-tokens';
import { canary, type ListResult } from '../../../src/delivery/releases/commands';
import { commitReleaseChange } from '../../../src/delivery/releases/release-change';
import { loadAppReleases } from '../../../src/delivery/releases/release-repository';
import { REFRESH_MS } from '../../../src/delivery/releases/reader';
import { eventually } from '../../helpers/eventually';
import { httpRequest, type HttpResponse } from '../../helpers/http';
import { createReleaseFixture, publishFixture, type ReleaseFixture } from '../../helpers/releases';
import { serverProcesses, type ServerProcess } from '../../helpers/server-process';

// Two real API processes on one database, as the container topology runs them, and a team's CI
// (or two) sending two changes of the blog's releases at once, one to each, both decided on the
// same state: every pair of commands, many rounds. Exactly one may win each round; the other is
// refused with what changed, and both processes then serve the winner's state.
jest.setTimeout(300_000);

const ROUNDS_PER_PAIR = 4;

const COMMANDS = ['promote', 'abort', 'rollback', 'canary', 'stage'] as const;
type Command = (typeof COMMANDS)[number];

/** Every pair of commands, a command with itself included. */
const PAIRS = COMMANDS.flatMap((first, index) => COMMANDS.slice(index).map((second) => [first, second] as const));

let fixture: ReleaseFixture;
let token = '';
const servers = serverProcesses();
/** The releases every round starts from: `previous` and `current` made current in turn, `candidate` a canary's at 10 %. */
const ids = { previous: '', current: '', candidate: '' };
let builds = 0;

beforeAll(async () => {
  fixture = await createReleaseFixture();
  ids.previous = await publishFixture(fixture, 'blog', { label: 'previous' });
  ids.current = await publishFixture(fixture, 'blog', { label: 'current' });
  ids.candidate = (await canary(fixture.context, 'blog', { build: await fixture.buildOf('blog', { label: 'candidate' }), share: 10, minViews: 1000, promoteAfter: null })).candidate.id;
  token = await createReleaseToken(fixture.db, { name: 'ci-blog', apps: ['blog'] });
  // Staged builds pile up over the rounds: none is pruned while the test reads them.
  const env = { ...fixture.env, RELEASES_KEEP: '1000' };
  await servers.start(env);
  await servers.start(env);
});

afterAll(async () => {
  await servers.stopAll('SIGTERM');
  await fixture?.cleanup();
});

/** Back to the starting state, as one change; returns the revision both commands are then decided on. */
async function resetState(): Promise<number> {
  const state = await loadAppReleases(fixture.db, 'blog');
  const since = new Date().toISOString();
  await commitReleaseChange(fixture.db, {
    app: 'blog',
    startedAt: state.state.revision,
    history: [ids.previous, ids.current],
    candidate: { id: ids.candidate, share: 10, minViews: 1000, promoteAfter: null, since },
    events: [],
    actor: 'cli:test@fixture',
    at: new Date(),
  });
  return state.state.revision + 1;
}

/** Sends `command` to `server` as the release command line does, naming the revision it read. */
async function send(server: ServerProcess, command: Command, revision: number): Promise<HttpResponse> {
  const headers = { authorization: `Bearer ${token}` };
  const path = `${RELEASE_API_PATH}/blog`;
  if (command === 'stage') {
    const archive = await packReleaseArchive(fixture.build('blog', { label: `staged-${(builds += 1)}` }));
    return httpRequest(server.baseUrl, 'POST', `${path}/builds?action=stage&expectRevision=${revision}`, {
      headers: { ...headers, 'content-type': 'application/gzip' },
      body: archive,
    });
  }
  const json = { expect: { revision }, ...(command === 'canary' && { release: ids.candidate, share: 50 }) };
  return httpRequest(server.baseUrl, 'POST', `${path}/${command}`, { headers, json });
}

/** What the blog's releases are after `command` won: current, candidate (with its share), and the last decision. */
function stateAfter(command: Command): { current: string; candidate: string | null; share: number | null; action: string } {
  switch (command) {
    case 'promote':
      return { current: ids.candidate, candidate: null, share: null, action: 'promoted' };
    case 'abort':
      return { current: ids.current, candidate: null, share: null, action: 'aborted' };
    case 'rollback':
      return { current: ids.current, candidate: null, share: null, action: 'rolled_back' };
    case 'canary':
      return { current: ids.current, candidate: ids.candidate, share: 50, action: 'canary' };
    case 'stage':
      return { current: ids.current, candidate: ids.candidate, share: 10, action: 'staged' };
  }
}

/** The blog's state as a process's release API lists it (read from the database as the change left it). */
async function listedBy(server: ServerProcess) {
  const response = await httpRequest(server.baseUrl, 'GET', `${RELEASE_API_PATH}/blog`, { headers: { authorization: `Bearer ${token}` } });
  const list = response.json<ListResult>();
  const candidate = list.releases.find((entry) => 'share' in entry);
  return { current: list.current?.id, candidate: candidate?.release.id ?? null, share: candidate && 'share' in candidate ? candidate.share : null };
}

/** The blog release a process gives a visitor outside any canary's share, and one inside it (bucket 0). */
async function servedBy(server: ServerProcess) {
  const [outside, inside] = await Promise.all(
    [undefined, 'agency_bucket=0'].map((cookie) => httpRequest(server.baseUrl, 'GET', '/remotes.json', { headers: cookie ? { cookie } : {} })),
  );
  return [outside!.json<RemotesDocument>().remotes.blog.release, inside!.json<RemotesDocument>().remotes.blog.release];
}

describe.each(PAIRS)('%s on one process and %s on the other, at once', (first, second) => {
  it(`one wins each of ${ROUNDS_PER_PAIR} rounds, the other is refused, and both processes serve the winner's state`, async () => {
    let expected: ReturnType<typeof stateAfter> | undefined;
    for (let round = 0; round < ROUNDS_PER_PAIR; round += 1) {
      const revision = await resetState();
      // Which process gets which command alternates, so neither is always first to the lock.
      const [a, b] = round % 2 === 0 ? [servers.running[0]!, servers.running[1]!] : [servers.running[1]!, servers.running[0]!];
      const answers = await Promise.all([send(a, first, revision), send(b, second, revision)]);
      const won = answers.flatMap((answer, index) => (answer.statusCode === 200 ? [index === 0 ? first : second] : []));
      const refused = answers.filter((answer) => answer.statusCode !== 200);
      expect({ round, statuses: answers.map((answer) => answer.statusCode) }).toEqual({ round, statuses: expect.arrayContaining([200, 409]) });
      expect(won).toHaveLength(1);
      expect(refused[0]!.json<{ error: { code: string; message: string } }>().error).toEqual({
        code: 'CONCURRENT_CHANGE',
        message: expect.stringMatching(/^blog's releases (are not as this command expects|changed while this command ran).*by token:ci-blog at .*Nothing was changed/),
      });
      expected = stateAfter(won[0]!);
      const state = await loadAppReleases(fixture.db, 'blog');
      expect(state.state.revision).toBe(revision + 1);
      expect(state.events.at(-1)).toMatchObject({ action: expected.action, actor: 'token:ci-blog' });
      const { action: _action, ...listed } = expected;
      expect(await Promise.all(servers.running.map(listedBy))).toEqual([listed, listed]);
    }
    // What visitors get, once each process has looked at the database again (about once a second).
    const { current, candidate } = expected!;
    await eventually(
      'both processes to serve the last winner’s releases',
      () => Promise.all(servers.running.map(servedBy)),
      (served) => served.every(([outside, inside]) => outside === current && inside === (candidate ?? current)),
      5 * REFRESH_MS,
    );
  });
});
