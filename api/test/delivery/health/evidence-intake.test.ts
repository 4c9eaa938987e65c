import { RELEASE_BUCKET_COOKIE, type RemotesDocument } from '@agency/shared';
import { MIN_CLIENTS } from '../../../src/delivery/canary/canary-judge';
import { canary } from '../../../src/delivery/releases/commands';
import { loadAppReleases } from '../../../src/delivery/releases/release-repository';
import { ReleaseReader } from '../../../src/delivery/releases/reader';
import { openReleaseStorage } from '../../../src/delivery/releases/release-storage';
import { createEvidenceIntake } from '../../../src/delivery/health/evidence-intake';
import { readReleaseHealth } from '../../../src/delivery/health/release-health';
import { TelemetryRecorder } from '../../../src/delivery/health/telemetry-recorder';
import type { FastifyRequest } from 'fastify';
import { startTestApp, type TestContext } from '../../helpers/app';
import { eventually } from '../../helpers/eventually';
import { createReleaseFixture, publishFixture, type ReleaseFixture } from '../../helpers/releases';
import { browserError } from '../../helpers/telemetry';

// A canary's decisions against what one hostile client can send, on a real server and database
// whose own controller decides: the candidate's release id is public, and browsers' reports are a
// signal, not proof. Clients are told apart by their addresses (127.0.x.y here).
jest.setTimeout(90_000);

describe('a canary on a real server, deciding by itself', () => {
  let fixture: ReleaseFixture;
  let ctx: TestContext;
  let current = '';

  beforeEach(async () => {
    fixture = await createReleaseFixture();
    fixture.context.now = () => new Date();
    ctx = await startTestApp(fixture.config, fixture.testDb);
    current = await publishFixture(fixture, 'blog', { label: 'current' });
  });

  afterEach(async () => {
    await ctx.close();
    await fixture.cleanup();
  });

  const IN_SHARE = `${RELEASE_BUCKET_COOKIE}=1`;
  const OUT_OF_SHARE = `${RELEASE_BUCKET_COOKIE}=9999`;

  /** A browser's navigation to the home page from `address`, with `cookie`. */
  async function openPage(address: string, cookie = ''): Promise<number> {
    const response = await ctx.request('GET', '/', { headers: { accept: 'text/html', 'sec-fetch-mode': 'navigate', cookie }, localAddress: address });
    return response.statusCode;
  }

  async function beacon(address: string, cookie: string, body: unknown): Promise<number> {
    return (await ctx.request('POST', '/api/telemetry', { json: body, headers: { cookie }, localAddress: address })).statusCode;
  }

  /** Starts a canary of a new blog build for half the visitors, once the server serves it. */
  async function startCanary(rules: { minViews: number; promoteAfter: number | null }): Promise<string> {
    await canary(fixture.context, 'blog', { build: await fixture.buildOf('blog', { label: 'candidate' }), share: 50, ...rules });
    const candidate = (await loadAppReleases(fixture.db, 'blog')).candidate!.id;
    await eventually(
      'the server serving the canary',
      async () => (await ctx.request('GET', '/remotes.json', { headers: { cookie: IN_SHARE } })).json<RemotesDocument>().remotes.blog.release,
      (release) => release === candidate,
    );
    return candidate;
  }

  /** The automatic decisions recorded (publishing and starting the canary are events too). */
  const decisions = async () =>
    (await loadAppReleases(fixture.db, 'blog')).events.map((event) => event.action).filter((action) => action === 'promoted' || action === 'rolled_back');

  /** Long enough for the server's controller, which looks every second, to have looked a few times. */
  const severalLooks = () => new Promise((resolve) => setTimeout(resolve, 3500));

  it('is neither rolled back nor promoted by one client, with a bucket cookie in the share or none', async () => {
    const candidate = await startCanary({ minViews: 10, promoteAfter: 20 });
    const attacker = '127.0.6.1';
    // Forty page loads as the candidate's visitor: more than --promote-after, from one client.
    for (let load = 0; load < 40; load += 1) expect(await openPage(attacker, IN_SHARE)).toBe(200);
    const views = (release: string) => Array.from({ length: 20 }, () => ({ page: '/', releases: { blog: release } }));
    const errors = (release: string) => [browserError({ app: 'blog', release, count: 1000 }), browserError({ app: 'blog', release, kind: 'load_failure', count: 1000 })];
    for (let index = 0; index < 11; index += 1) expect(await beacon(attacker, IN_SHARE, { page_views: views(candidate) })).toBe(204);
    expect(await beacon(attacker, IN_SHARE, { page_views: views(current), errors: errors(candidate) })).toBe(204);
    // Without a bucket the client is the current release's: it can report only on that.
    const other = '127.0.6.2';
    for (let load = 0; load < 40; load += 1) expect(await openPage(other, OUT_OF_SHARE)).toBe(200);
    expect(await beacon(other, '', { page_views: views(candidate), errors: errors(candidate) })).toBe(204);
    expect(await beacon(other, '', { page_views: views(current) })).toBe(204);

    await severalLooks();
    expect(await decisions()).toEqual([]);
    expect((await loadAppReleases(fixture.db, 'blog')).candidate?.id).toBe(candidate);
  });

  it(`is rolled back when ${MIN_CLIENTS} of its visitors' browsers report errors`, async () => {
    const candidate = await startCanary({ minViews: 10, promoteAfter: null });
    // Visitors of the current release, seeing no error.
    for (let index = 0; index < MIN_CLIENTS; index += 1) expect(await openPage(`127.0.7.${index + 1}`, OUT_OF_SHARE)).toBe(200);
    for (let index = 0; index < MIN_CLIENTS; index += 1) {
      const visitor = `127.0.8.${index + 1}`;
      for (let load = 0; load < 2; load += 1) expect(await openPage(visitor, IN_SHARE)).toBe(200);
      expect(await beacon(visitor, IN_SHARE, { page_views: [{ page: '/', releases: { blog: candidate } }], errors: [browserError({ app: 'blog', release: candidate })] })).toBe(204);
    }
    await eventually('the rollback', decisions, (actions) => actions.includes('rolled_back'), 20_000);
    const state = await loadAppReleases(fixture.db, 'blog');
    expect(state.candidate).toBeUndefined();
    expect(state.current?.id).toBe(current);
    // The site decided, not a person or a team's token.
    expect(state.events.at(-1)?.actor).toBe('site');
    expect(state.events.at(-1)?.reason).toMatch(new RegExp(`^errors from ${MIN_CLIENTS} of ${MIN_CLIENTS} clients \\(100 %\\) over 10 page views, against 0 % of the current release's ${MIN_CLIENTS} clients$`));
  });

  it(`is promoted once the pages --promote-after asks for were sent to ${MIN_CLIENTS} clients`, async () => {
    const candidate = await startCanary({ minViews: 10, promoteAfter: 20 });
    for (let index = 0; index < MIN_CLIENTS - 1; index += 1) {
      for (let load = 0; load < 5; load += 1) expect(await openPage(`127.0.9.${index + 1}`, IN_SHARE)).toBe(200);
    }
    // Twenty pages, but from one client too few.
    await severalLooks();
    expect(await decisions()).toEqual([]);
    expect(await openPage(`127.0.9.${MIN_CLIENTS}`, IN_SHARE)).toBe(200);
    await eventually('the promotion', decisions, (actions) => actions.includes('promoted'), 20_000);
    expect((await loadAppReleases(fixture.db, 'blog')).current?.id).toBe(candidate);
  });
});

describe('while the key clients are told apart by cannot be read', () => {
  let fixture: ReleaseFixture;

  beforeEach(async () => {
    fixture = await createReleaseFixture();
  });

  afterEach(async () => {
    await fixture.cleanup();
  });

  it('counts reports and sent pages, keeps no client, and reads the key once it can', async () => {
    const { db } = fixture;
    await publishFixture(fixture, 'blog', { label: 'current' });
    await canary(fixture.context, 'blog', { build: await fixture.buildOf('blog', { label: 'candidate' }), share: 100, minViews: 10, promoteAfter: null });
    const { cache } = openReleaseStorage({ ...fixture.config, s3: { region: 'us-east-1', forcePathStyle: false } });
    const releases = new ReleaseReader(db, cache);
    const state = await releases.get('blog');
    const candidate = state.candidate!.id;
    const remotes: RemotesDocument = {
      shell: { release: 'dist' },
      remotes: { home: { entry: '', release: 'dist' }, blog: { entry: '', release: candidate }, forms: { entry: '', release: 'dist' }, staff: { entry: '', release: 'dist' } },
    };
    const recorder = new TelemetryRecorder(db, (error) => {
      throw error;
    });
    let available = false;
    const failures: unknown[] = [];
    const intake = createEvidenceIntake({
      recorder,
      releases,
      visitorReleases: async () => ({ remotes }),
      secret: async () => (available ? 'the-key-once-the-database-is-back' : Promise.reject(new Error('database away'))),
      onSecretError: (error) => failures.push(error),
    });
    const request = { method: 'GET', url: '/', ip: '203.0.113.9', headers: { 'sec-fetch-mode': 'navigate' } } as unknown as FastifyRequest;
    const page = { remotes, apps: ['shell', 'blog'], pattern: '/' };

    await intake.pageSent(request, page);
    const { client, judged } = await intake.reporter(request);
    expect(judged('blog', candidate)).toBe(false);
    recorder.record(intake.admission.report({ errors: [browserError({ app: 'blog', release: candidate })] }, client).batch, { client: client.id, judged });
    await recorder.flush();
    const health = await readReleaseHealth(db, 'blog', [{ id: candidate, current: false }], 0, async () => null);
    expect(health[0]).toMatchObject({ served_page_views: 1, errors: 1, clients: { served: 0, error: 0 } });
    expect(failures).toHaveLength(1);
    expect(await db.kysely.selectFrom('telemetry_clients').selectAll().execute()).toEqual([]);

    // Back: the next try (a few seconds on) reads it, and evidence is kept again.
    available = true;
    await new Promise((resolve) => setTimeout(resolve, 5100));
    await intake.pageSent(request, page);
    await recorder.flush();
    expect((await db.kysely.selectFrom('telemetry_clients').select('kind').execute()).map((row) => row.kind)).toEqual(['served']);
  });
});
