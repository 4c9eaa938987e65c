jest.mock('@module-federation/enhanced/runtime', () => ({ registerRemotes: jest.fn() }));

describe('registerRuntimeRemotes', () => {
  let registerRemotes: jest.Mock;

  // A fresh module per test: the registration is memoised for the page's lifetime.
  beforeEach(async () => {
    jest.resetModules();
    registerRemotes = (await import('@module-federation/enhanced/runtime')).registerRemotes as jest.Mock;
  });

  it('registers each remote at the manifest URL the server announces, once', async () => {
    const config = {
      home: '/remotes/home/mf-manifest.json',
      blog: 'https://cdn.example/blog/mf-manifest.json',
      forms: '/remotes/forms/mf-manifest.json',
    };
    global.fetch = jest.fn().mockResolvedValue({ ok: true, json: () => Promise.resolve(config) });
    const { registerRuntimeRemotes } = await import('./remotes-config');
    await Promise.all([registerRuntimeRemotes(), registerRuntimeRemotes()]);
    expect(global.fetch).toHaveBeenCalledTimes(1);
    expect(global.fetch).toHaveBeenCalledWith('/remotes.json', { cache: 'no-cache' });
    expect(registerRemotes).toHaveBeenCalledWith([
      { name: 'agency_home', alias: 'home', entry: '/remotes/home/mf-manifest.json' },
      { name: 'agency_blog', alias: 'blog', entry: 'https://cdn.example/blog/mf-manifest.json' },
      { name: 'agency_forms', alias: 'forms', entry: '/remotes/forms/mf-manifest.json' },
    ]);
  });

  it('rejects when the server cannot say where the remotes are', async () => {
    global.fetch = jest.fn().mockResolvedValue({ ok: false, status: 503 });
    const { registerRuntimeRemotes } = await import('./remotes-config');
    await expect(registerRuntimeRemotes()).rejects.toThrow('503');
    expect(registerRemotes).not.toHaveBeenCalled();
  });
});
