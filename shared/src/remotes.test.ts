import { resolveRemotesConfig, SAME_ORIGIN_REMOTES } from './remotes';

describe('resolveRemotesConfig', () => {
  it('serves each remote from the same origin by default', () => {
    expect(resolveRemotesConfig({}, SAME_ORIGIN_REMOTES)).toEqual({
      home: '/remotes/home/mf-manifest.json',
      blog: '/remotes/blog/mf-manifest.json',
      forms: '/remotes/forms/mf-manifest.json',
    });
  });

  it('takes each remote from its own environment variable, ignoring blank values', () => {
    const config = resolveRemotesConfig(
      { REMOTE_BLOG_URL: ' https://blog.example/mf-manifest.json ', REMOTE_FORMS_URL: '  ' },
      SAME_ORIGIN_REMOTES,
    );
    expect(config).toEqual({
      home: '/remotes/home/mf-manifest.json',
      blog: 'https://blog.example/mf-manifest.json',
      forms: '/remotes/forms/mf-manifest.json',
    });
  });
});
