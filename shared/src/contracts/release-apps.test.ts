import { releaseAppsProblem } from './release-apps';
import { mayActOnReleases, roleAllows } from './staff-constants';

describe('a member’s release apps', () => {
  it('are one or more apps of the site, each once, for a release manager', () => {
    expect(releaseAppsProblem('release_manager', ['blog'])).toBeUndefined();
    expect(releaseAppsProblem('release_manager', ['shell', 'home', 'blog', 'forms', 'staff'])).toBeUndefined();
    expect(releaseAppsProblem('release_manager', [])).toBe('Виберіть щонайменше один застосунок, релізами якого керуватиме менеджер релізів');
    expect(releaseAppsProblem('release_manager', ['blog', 'Blog'])).toBe('Невідомий застосунок «Blog»: можна shell, home, blog, forms, staff');
    expect(releaseAppsProblem('release_manager', ['forms', 'blog', 'forms'])).toBe('Застосунок «forms» названо двічі');
  });

  it('are none for every other role: an admin reads «Релізи» but is no release manager', () => {
    for (const role of ['viewer', 'editor', 'admin'] as const) {
      expect(releaseAppsProblem(role, [])).toBeUndefined();
      expect(releaseAppsProblem(role, ['blog'])).toBe('Застосунки призначають лише менеджерам релізів');
    }
    expect(roleAllows('admin', 'releases')).toBe(true);
    expect(roleAllows('admin', 'release_manager')).toBe(false);
    expect(mayActOnReleases({ role: 'admin', releaseApps: [] }, 'blog')).toBe(false);
    expect(mayActOnReleases({ role: 'release_manager', releaseApps: ['blog'] }, 'blog')).toBe(true);
    expect(mayActOnReleases({ role: 'release_manager', releaseApps: ['blog'] }, 'forms')).toBe(false);
    // A release manager works no leads and reads no content.
    for (const needed of ['viewer', 'editor', 'admin'] as const) expect(roleAllows('release_manager', needed)).toBe(false);
    expect(roleAllows('release_manager', 'member')).toBe(true);
  });
});
