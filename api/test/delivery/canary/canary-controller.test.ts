import { createHmac } from 'node:crypto';
import path from 'node:path';
import Fastify from 'fastify';
import type { Database } from '../../../src/platform/db/connection';
import { ReleaseCache } from '../../../src/delivery/artifacts/release-files';
import { startCanaryController, type ReleaseDecisionMessage } from '../../../src/delivery/canary/canary-controller';
import { createOpsWebhook } from '../../../src/platform/alerts/ops-webhook';
import { canary } from '../../../src/delivery/releases/commands';
import { ReleaseReader } from '../../../src/delivery/releases/reader';
import { loadAppReleases } from '../../../src/delivery/releases/release-repository';
import { TelemetryRecorder } from '../../../src/delivery/health/telemetry-recorder';
import { eventually } from '../../helpers/eventually';
import { startHttpReceiver, type HttpReceiver } from '../../helpers/lead-receivers';
import { createReleaseFixture, publishFixture, type ReleaseFixture } from '../../helpers/releases';

// Automatic decisions on a real artifact store and a real database (SQLite or PostgreSQL, per
// project): two controllers stand for two API processes on one database, each with its own reader.

const SECRET = 'ops-webhook-test-secret';
const log = Fastify({ logger: false }).log;

let db: Database;
let fixture: ReleaseFixture;
let receiver: HttpReceiver;
const controllers: { stop(): Promise<void> }[] = [];

beforeEach(async () => {
  fixture = await createReleaseFixture();
  db = fixture.db;
  // Decisions are stamped with the real time: health is read from telemetry counted now.
  fixture.context.now = () => new Date();
  receiver = await startHttpReceiver();
});

afterEach(async () => {
  await Promise.all(controllers.splice(0).map((controller) => controller.stop()));
  await receiver.close();
  await fixture.cleanup();
});

function startTwoProcesses() {
  const notify = createOpsWebhook({ url: receiver.url, secret: SECRET }, log, [50]);
  for (let index = 0; index < 2; index += 1) {
    // Each process reads the releases itself, as a server does.
    const releases = new ReleaseReader(db, new ReleaseCache({ store: fixture.context.store, dir: path.join(fixture.scratch, `cache-${index}`) }));
    controllers.push(startCanaryController({ db, context: { ...fixture.context, actor: 'site' }, releases, log, site: 'https://khvylia.example', notify, intervalMs: 100 }));
  }
}

let clients = 0;

/**
 * Pages of a blog release the server sent, each to a client of its own, and the errors the first
 * `errors` of those clients' browsers reported on them, written as the API writes them while the
 * canary judges the release.
 */
async function report(release: string, views: number, errors = 0): Promise<void> {
  const recorder = new TelemetryRecorder(db, (error) => {
    throw error;
  });
  for (let view = 0; view < views; view += 1) {
    const evidence = { client: `client-${(clients += 1)}`, judged: () => true };
    recorder.recordServedPage('/', { blog: release }, evidence);
    recorder.record(
      {
        page_views: [{ page: '/', releases: { blog: release } }],
        errors: errors > view ? [{ app: 'blog', release, kind: 'boundary', page: '/', message: 'BlogTeaser broke', count: 1 }] : [],
      },
      evidence,
    );
  }
  await recorder.flush();
}

const events = async () => (await loadAppReleases(db, 'blog')).events;

it('rolls a failing candidate back once, however many processes look, and tells the ops webhook, signed', async () => {
  const current = await publishFixture(fixture, 'blog', { label: 'v1' });
  await canary(fixture.context, 'blog', { build: await fixture.buildOf('blog', { label: 'v2' }), share: 50, minViews: 10, promoteAfter: null });
  const candidate = (await loadAppReleases(db, 'blog')).candidate!.id;
  startTwoProcesses();
  await report(current, 10);
  await report(candidate, 9, 9);
  // Nine bad views of ten: not judged yet.
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect((await loadAppReleases(db, 'blog')).candidate?.id).toBe(candidate);

  await report(candidate, 1, 1);
  const decided = await eventually('the rollback', events, (list) => list.some((event) => event.action === 'rolled_back'));
  const state = await loadAppReleases(db, 'blog');
  expect(state.candidate).toBeUndefined();
  expect(state.current?.id).toBe(current);
  expect(decided.map((event) => [event.action, event.actor])).toEqual([
    ['published', 'cli:test@fixture'],
    ['canary', 'cli:test@fixture'],
    ['rolled_back', 'site'],
  ]);
  expect(decided[2]).toMatchObject({ release: candidate, reason: "errors from 10 of 10 clients (100 %) over 10 page views, against 0 % of the current release's 10 clients" });

  const [message] = await eventually('the ops message', () => receiver.accepted(), (accepted) => accepted.length > 0);
  // Let a second process have its chances to decide again: it must not.
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(receiver.received).toHaveLength(1);
  expect((await events()).filter((event) => event.action === 'rolled_back')).toHaveLength(1);
  expect(message!.headers['x-signature']).toBe(`sha256=${createHmac('sha256', SECRET).update(message!.body).digest('hex')}`);
  expect(JSON.parse(message!.body) as ReleaseDecisionMessage).toEqual({
    type: 'release_decision',
    site: 'https://khvylia.example',
    app: 'blog',
    release: candidate,
    action: 'rolled_back',
    reason: decided[2]!.reason,
    at: decided[2]!.at,
    current,
  });
});

it('promotes a healthy candidate after --promote-after page views', async () => {
  await publishFixture(fixture, 'blog', { label: 'v1' });
  const current = (await loadAppReleases(db, 'blog')).current!.id;
  await canary(fixture.context, 'blog', { build: await fixture.buildOf('blog', { label: 'v2' }), share: 10, minViews: 5, promoteAfter: 8 });
  const candidate = (await loadAppReleases(db, 'blog')).candidate!.id;
  startTwoProcesses();
  await report(current, 20, 1);
  await report(candidate, 8);
  await eventually('the promotion', async () => (await loadAppReleases(db, 'blog')).current?.id, (id) => id === candidate);
  const state = await loadAppReleases(db, 'blog');
  expect(state.candidate).toBeUndefined();
  expect(state.events.map((event) => [event.action, event.actor])).toEqual([
    ['published', 'cli:test@fixture'],
    ['canary', 'cli:test@fixture'],
    ['promoted', 'site'],
  ]);
  expect(state.events[2]!.reason).toBe("healthy over 8 page views sent to 8 clients (errors and load failures no worse than the current release's)");
  const [message] = await eventually('the ops message', () => receiver.accepted(), (accepted) => accepted.length > 0);
  expect(JSON.parse(message!.body)).toMatchObject({ action: 'promoted', release: candidate, current: candidate, at: state.events[2]!.at });
});

it('does nothing and asks nothing of the database while no app runs a canary', async () => {
  await publishFixture(fixture, 'blog');
  startTwoProcesses();
  await new Promise((resolve) => setTimeout(resolve, 400));
  expect(await db.kysely.selectFrom('release_leases').selectAll().execute()).toEqual([]);
});
