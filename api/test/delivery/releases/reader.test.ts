import fs from 'node:fs';
import path from 'node:path';
import { REFRESH_MS, ReleaseReader } from '../../../src/delivery/releases/reader';
import { createReleaseFixture, publishFixture, type FixtureBuild, type ReleaseFixture } from '../../helpers/releases';

// The server's cached view of the releases: how soon a switch shows, and what an unreadable state does.

let fixture: ReleaseFixture;
beforeEach(() => (fixture = createReleaseFixture()));
afterEach(() => fixture.cleanup());

const release = (app: string, build: FixtureBuild = {}) => publishFixture(fixture, app, build);

describe("the server's reader", () => {
  it('serves a new current release once its last read is a refresh interval (1 s) old', async () => {
    let now = 0;
    const reader = new ReleaseReader(fixture.releasesDir, () => undefined, () => now);
    const first = await release('forms');
    expect((await reader.get('forms')).current?.id).toBe(first);
    const second = await release('forms', { label: 'forms-2' });
    now += REFRESH_MS - 1;
    expect((await reader.get('forms')).current?.id).toBe(first);
    now += 1;
    expect((await reader.get('forms')).current?.id).toBe(second);
    expect(REFRESH_MS).toBeLessThanOrEqual(1000);
  });

  it('re-reads after a second, and keeps the last good state when state.json is unreadable', async () => {
    let now = 0;
    const errors: unknown[] = [];
    const reader = new ReleaseReader(fixture.releasesDir, (error) => errors.push(error), () => now);
    const first = await release('home');
    expect((await reader.get('home')).current?.id).toBe(first);
    fs.writeFileSync(path.join(fixture.releasesDir, 'home', 'state.json'), '{"hist');
    now += REFRESH_MS - 1;
    expect((await reader.get('home')).current?.id).toBe(first); // cached
    now += 1;
    expect((await reader.get('home')).current?.id).toBe(first); // re-read, failed, kept
    expect(errors).toHaveLength(1);
  });
});
