import { REMOTE_NAMES, remoteFederationName, remoteUrlOverrides, remoteUrlVariable } from './remotes';

describe('remotes', () => {
  it('names every remote of the registry with its own federation name and URL variable', () => {
    expect(REMOTE_NAMES).toEqual(['home', 'blog', 'forms']);
    expect(new Set(REMOTE_NAMES.map(remoteFederationName)).size).toBe(REMOTE_NAMES.length);
    expect(REMOTE_NAMES.map(remoteUrlVariable)).toEqual(['REMOTE_HOME_URL', 'REMOTE_BLOG_URL', 'REMOTE_FORMS_URL']);
  });

  it('takes a remote’s manifest URL from its environment variable, ignoring blank values', () => {
    expect(
      remoteUrlOverrides({ REMOTE_BLOG_URL: ' https://blog.example/mf-manifest.json ', REMOTE_FORMS_URL: '  ' }),
    ).toEqual({ blog: 'https://blog.example/mf-manifest.json' });
  });
});
