import { APP_NAMES } from '../../../src/delivery/releases/apps';
import { commitReleaseChange } from '../../../src/delivery/releases/release-change';
import { loadReleases } from '../../../src/delivery/releases/release-repository';
import { EVENTS_KEPT } from '../../../src/delivery/releases/state';
import { createReleaseFixture, type ReleaseFixture } from '../../helpers/releases';

// The releases every server process and command reads, on a real database (SQLite, then PostgreSQL).

let fixture: ReleaseFixture;
beforeEach(async () => (fixture = await createReleaseFixture()));
afterEach(() => fixture.cleanup());

describe('loadReleases', () => {
  it("gives each app its own newest decisions: a busy app's never crowd out a quiet one's", async () => {
    const at = new Date('2026-02-01T10:00:00.000Z');
    await commitReleaseChange(fixture.db, {
      app: 'blog',
      startedAt: 0,
      events: [{ release: 'blog-1', action: 'staged', reason: 'published for preview only' }],
      actor: 'token:blog-ci',
      at,
    });
    // More decisions of the shell, all newer, than every app's share of the events read together.
    const busy = EVENTS_KEPT * APP_NAMES.length + 1;
    await commitReleaseChange(fixture.db, {
      app: 'shell',
      startedAt: 0,
      events: Array.from({ length: busy }, (_, index) => ({ release: `shell-${index}`, action: 'staged' as const, reason: 'published for preview only' })),
      actor: 'token:shell-ci',
      at: new Date(at.getTime() + 60_000),
    });

    const { apps } = await loadReleases(fixture.db);

    expect(apps.get('blog')!.events).toEqual([{ at: at.toISOString(), release: 'blog-1', action: 'staged', reason: 'published for preview only', actor: 'token:blog-ci' }]);
    const shellEvents = apps.get('shell')!.events;
    expect(shellEvents).toHaveLength(EVENTS_KEPT);
    // The newest ones, oldest first.
    expect(shellEvents.at(0)!.release).toBe(`shell-${busy - EVENTS_KEPT}`);
    expect(shellEvents.at(-1)!.release).toBe(`shell-${busy - 1}`);
  });
});
