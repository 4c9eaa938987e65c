import { REMOTE_NAMES } from '../contracts/app-names';
import { remoteFederationName, remotesForPage, remoteUrlOverrides, remoteUrlVariable, type RemotesDocument } from './remotes';

describe('remotes', () => {
  it('names every remote of the registry with its own federation name and URL variable', () => {
    expect(REMOTE_NAMES).toEqual(['home', 'blog', 'forms', 'staff']);
    expect(new Set(REMOTE_NAMES.map(remoteFederationName)).size).toBe(REMOTE_NAMES.length);
    expect(REMOTE_NAMES.map(remoteUrlVariable)).toEqual(['REMOTE_HOME_URL', 'REMOTE_BLOG_URL', 'REMOTE_FORMS_URL', 'REMOTE_STAFF_URL']);
  });

  it('takes a remote’s manifest URL from its environment variable, ignoring blank values', () => {
    expect(
      remoteUrlOverrides({ REMOTE_BLOG_URL: ' https://blog.example/mf-manifest.json ', REMOTE_FORMS_URL: '  ' }),
    ).toEqual({ blog: 'https://blog.example/mf-manifest.json' });
  });

  it('leaves the staff console out of every public page’s remotes map, and names it under /staff only', () => {
    const everything = {
      shell: { release: 's1' },
      remotes: Object.fromEntries(REMOTE_NAMES.map((name) => [name, { entry: `/remotes/${name}/mf-manifest.json`, release: 'dist' }])),
    } as RemotesDocument;
    for (const path of ['/', '/blog/5', '/privacy', '/staffing', '/blog/staff']) {
      expect([path, Object.keys(remotesForPage(everything, path).remotes)]).toEqual([path, ['home', 'blog', 'forms']]);
    }
    for (const path of ['/staff', '/staff/login', '/staff/leads/7']) {
      expect([path, Object.keys(remotesForPage(everything, path).remotes)]).toEqual([path, REMOTE_NAMES]);
    }
    expect(remotesForPage(everything, '/').shell).toEqual({ release: 's1' });
  });
});
