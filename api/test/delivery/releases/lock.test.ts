import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promote, publish, rollback } from '../../../src/delivery/releases/commands';
import { LockHeldError } from '../../../src/delivery/releases/lock';
import { createReleaseFixture, CURRENT_VERSIONS, publishFixture, type FixtureBuild, type ReleaseFixture } from '../../helpers/releases';

// The lock every state-changing release command holds, on temp folders.

let fixture: ReleaseFixture;
beforeEach(() => (fixture = createReleaseFixture()));
afterEach(() => fixture.cleanup());

const release = (app: string, build: FixtureBuild = {}) => publishFixture(fixture, app, build);

describe('the lock', () => {
  const lockFile = () => path.join(fixture.releasesDir, '.lock');
  const holder = (pid: number | undefined, command = 'publish shell') =>
    JSON.stringify({ pid, host: os.hostname(), since: '2026-01-01T00:00:00.000Z', command });
  const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid;

  it('is one lock for the whole releases folder: a command on any app refuses to run while it is held', async () => {
    const first = await release('blog', { label: 'a' });
    await release('blog', { label: 'b' });
    fs.writeFileSync(lockFile(), holder(process.pid));
    const running = `Another release command is running (publish shell, pid ${process.pid} on ${os.hostname()} since 2026-01-01T00:00:00.000Z)`;
    await expect(release('blog')).rejects.toThrow(LockHeldError);
    await expect(release('home')).rejects.toThrow(running);
    await expect(promote(fixture.context, 'blog', first)).rejects.toThrow(running);
    await expect(rollback(fixture.context, 'blog')).rejects.toThrow(running);
    expect(fs.readFileSync(lockFile(), 'utf8')).toBe(holder(process.pid));
  });

  it('serializes the compatibility check across apps: a shell and a remote released at once cannot both pass it', async () => {
    // The blog accepts any axios 1.x or later: a shell with axios 2 passes against it, and a blog
    // that needs ^1.21.1 passes against the dist shell (1.21.1). Both together must not become current.
    // (Home and forms are loaded from elsewhere, so only the blog is checked.)
    const context = { ...fixture.context, remoteUrls: { home: 'https://a.example/m.json', forms: 'https://c.example/m.json' } };
    await publish(context, 'blog', fixture.build('blog', { label: 'loose', required: { axios: '>=1.0.0' } }));
    const shell = fixture.build('shell', { label: 'axios-2', versions: { ...CURRENT_VERSIONS, axios: '2.0.0' } });
    const blog = fixture.build('blog', { label: 'strict' });
    const runs = [() => publish(context, 'shell', shell), () => publish(context, 'blog', blog)];
    const results = await Promise.allSettled(runs.map((run) => run()));
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const loser = results.findIndex((result) => result.status === 'rejected');
    expect((results[loser] as PromiseRejectedResult).reason).toBeInstanceOf(LockHeldError);
    // Run again, the loser meets the winner in the compatibility check and is refused.
    await expect(runs[loser]?.()).rejects.toThrow(/^Refused: /);
  });

  it('takes over a lock left by a dead process, and cleans up what that process left behind', async () => {
    fs.mkdirSync(fixture.releasesDir, { recursive: true });
    fs.writeFileSync(lockFile(), holder(deadPid()));
    // The crashed command also left a half-made copy behind: cleaned up, never listed.
    const appDir = path.join(fixture.releasesDir, 'blog');
    fs.mkdirSync(path.join(appDir, '.tmp-0123456789ab'), { recursive: true });
    const id = await release('blog');
    expect(fs.readdirSync(appDir).sort()).toEqual([id, 'state.json']);
    expect(fs.readdirSync(fixture.releasesDir)).toEqual(['blog']);
  });

  it('refuses, and puts back, a live lock it moved away while taking over a stale one', async () => {
    // Another command saw the same dead holder and took the lock over first, between this
    // command's read of the stale lock and its rename of it.
    fs.mkdirSync(fixture.releasesDir, { recursive: true });
    fs.writeFileSync(lockFile(), holder(deadPid()));
    const fresh = holder(process.pid, 'promote home');
    const rename = jest.spyOn(fsp, 'rename').mockImplementationOnce(async (from, to) => {
      fs.writeFileSync(lockFile(), fresh);
      return fsp.rename(from, to);
    });
    try {
      await expect(release('blog')).rejects.toThrow(`Another release command is running (promote home, pid ${process.pid}`);
    } finally {
      rename.mockRestore();
    }
    expect(fs.readFileSync(lockFile(), 'utf8')).toBe(fresh);
    expect(fs.readdirSync(fixture.releasesDir)).toEqual(['.lock']);
  });

  it('tries again when the stale lock is gone by the time it renames it', async () => {
    fs.mkdirSync(fixture.releasesDir, { recursive: true });
    fs.writeFileSync(lockFile(), holder(deadPid()));
    // Another command took the stale lock over and already finished.
    const rename = jest.spyOn(fsp, 'rename').mockImplementationOnce(async (from, to) => {
      fs.rmSync(lockFile());
      return fsp.rename(from, to);
    });
    try {
      expect(await release('blog')).toMatch(/^1\.0\.0-/);
    } finally {
      rename.mockRestore();
    }
    expect(fs.existsSync(lockFile())).toBe(false);
  });
});
