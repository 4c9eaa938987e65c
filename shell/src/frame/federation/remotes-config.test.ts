import type { RemotesDocument } from '@agency/shared';

jest.mock('@module-federation/enhanced/runtime', () => ({ registerRemotes: jest.fn() }));

function documentWithBlog(release: string): RemotesDocument {
  return {
    shell: { release: 'shell-1' },
    remotes: {
      home: { entry: '/remotes/home/h1/mf-manifest.json', release: 'h1' },
      blog: { entry: `/remotes/blog/${release}/mf-manifest.json`, release },
      forms: { entry: 'https://cdn.example/forms/mf-manifest.json', release: 'external' },
      staff: { entry: 'https://cdn.example/staff/mf-manifest.json', release: 'external' },
    },
  };
}

function serve(...documents: RemotesDocument[]): jest.Mock {
  const fetchMock = jest.fn();
  for (const document of documents) fetchMock.mockResolvedValueOnce({ ok: true, json: () => Promise.resolve(document) });
  global.fetch = fetchMock;
  return fetchMock;
}

describe('remotes-config', () => {
  let registerRemotes: jest.Mock;

  // A fresh module per test: the registration is memoised for the page's lifetime.
  beforeEach(async () => {
    jest.resetModules();
    registerRemotes = (await import('@module-federation/enhanced/runtime')).registerRemotes as jest.Mock;
    delete window.__AGENCY_RELEASES__;
  });

  it('registers each remote at the manifest URL the server announces, once', async () => {
    const fetchMock = serve(documentWithBlog('b1'));
    const { registerRuntimeRemotes, registeredRemote } = await import('./remotes-config');
    await Promise.all([registerRuntimeRemotes(), registerRuntimeRemotes()]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledWith('/remotes.json', { cache: 'no-cache' });
    expect(registerRemotes).toHaveBeenCalledWith(
      [
        { name: 'agency_home', alias: 'home', entry: '/remotes/home/h1/mf-manifest.json' },
        { name: 'agency_blog', alias: 'blog', entry: '/remotes/blog/b1/mf-manifest.json' },
        { name: 'agency_forms', alias: 'forms', entry: 'https://cdn.example/forms/mf-manifest.json' },
        { name: 'agency_staff', alias: 'staff', entry: 'https://cdn.example/staff/mf-manifest.json' },
      ],
      { force: false },
    );
    expect(registeredRemote('blog')?.release).toBe('b1');
  });

  it('registers only the remotes a public page map names, leaving the staff console out', async () => {
    const { staff: _staff, ...publicRemotes } = documentWithBlog('b1').remotes;
    serve({ shell: { release: 'shell-1' }, remotes: publicRemotes } as RemotesDocument);
    const { registerRuntimeRemotes, registeredRemote } = await import('./remotes-config');
    await registerRuntimeRemotes();
    expect(registerRemotes).toHaveBeenCalledWith(
      [
        { name: 'agency_home', alias: 'home', entry: '/remotes/home/h1/mf-manifest.json' },
        { name: 'agency_blog', alias: 'blog', entry: '/remotes/blog/b1/mf-manifest.json' },
        { name: 'agency_forms', alias: 'forms', entry: 'https://cdn.example/forms/mf-manifest.json' },
      ],
      { force: false },
    );
    expect(registeredRemote('staff')).toBeUndefined();
  });

  it('tells support which release of each app the page runs, through window', async () => {
    serve(documentWithBlog('b1'));
    const { registerRuntimeRemotes } = await import('./remotes-config');
    await registerRuntimeRemotes();
    expect(window.__AGENCY_RELEASES__).toEqual({
      shell: 'shell-1',
      remotes: documentWithBlog('b1').remotes,
    });
  });

  it('moves a remote to the release the server now announces, replacing the old registration', async () => {
    serve(documentWithBlog('b1'), documentWithBlog('b2'));
    const { registerRuntimeRemotes, refreshRemote, registeredRemote } = await import('./remotes-config');
    await registerRuntimeRemotes();
    await expect(refreshRemote('blog')).resolves.toBe(true);
    expect(registerRemotes).toHaveBeenLastCalledWith(
      [{ name: 'agency_blog', alias: 'blog', entry: '/remotes/blog/b2/mf-manifest.json' }],
      { force: true },
    );
    expect(registeredRemote('blog')?.release).toBe('b2');
    expect(window.__AGENCY_RELEASES__?.remotes.blog?.release).toBe('b2');
  });

  it('leaves a remote registered as it is when its release is unchanged', async () => {
    serve(documentWithBlog('b1'), documentWithBlog('b1'));
    const { registerRuntimeRemotes, refreshRemote } = await import('./remotes-config');
    await registerRuntimeRemotes();
    await expect(refreshRemote('blog')).resolves.toBe(false);
    expect(registerRemotes).toHaveBeenCalledTimes(1);
  });

  it('asks the server once for slots of one remote that fail together', async () => {
    const fetchMock = serve(documentWithBlog('b1'), documentWithBlog('b2'));
    const { registerRuntimeRemotes, refreshRemote } = await import('./remotes-config');
    await registerRuntimeRemotes();
    await expect(Promise.all([refreshRemote('blog'), refreshRemote('blog')])).resolves.toEqual([true, true]);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(registerRemotes).toHaveBeenCalledTimes(2);
  });

  it('keeps reporting the shell release the page was loaded with', async () => {
    const later = { ...documentWithBlog('b2'), shell: { release: 'shell-2' } };
    serve(documentWithBlog('b1'), later);
    const { registerRuntimeRemotes, refreshRemote } = await import('./remotes-config');
    await registerRuntimeRemotes();
    await refreshRemote('blog');
    expect(window.__AGENCY_RELEASES__?.shell).toBe('shell-1');
  });

  it('rejects when the server cannot say where the remotes are', async () => {
    global.fetch = jest.fn().mockResolvedValue({ ok: false, status: 503 });
    const { registerRuntimeRemotes } = await import('./remotes-config');
    await expect(registerRuntimeRemotes()).rejects.toThrow('503');
    expect(registerRemotes).not.toHaveBeenCalled();
  });
});
