import { createInstance } from '@module-federation/enhanced/runtime';
import serverPreloadedAssetsPlugin from './server-preloaded-assets-plugin';

// What the runtime asks its plugins before loading a module's assets itself, through its own hooks.
async function assetsLoadedFor(modules: { remote: string; expose: string }[]) {
  const origin = createInstance({ name: 'plugin_test_host', remotes: [], plugins: [serverPreloadedAssetsPlugin()] });
  const preloadOps = modules.map(({ remote, expose }) => ({ nameOrAlias: remote, exposes: [expose], resourceCategory: 'sync' as const }));
  await origin.remoteHandler.hooks.lifecycle.beforePreloadRemote.emit({ preloadOps, options: origin.options, origin });
  return preloadOps.map((op) => `${op.nameOrAlias} ${op.exposes.join()}`);
}

describe('serverPreloadedAssetsPlugin', () => {
  afterEach(() => document.body.replaceChildren());

  it('leaves the assets of a module the server rendered to the page, and loads the others', async () => {
    document.body.innerHTML = '<div data-remote-module="home/Hero"><h1>Hero</h1></div>';
    await expect(
      assetsLoadedFor([
        { remote: 'home', expose: './Hero' },
        { remote: 'home', expose: './Services' },
        { remote: 'forms', expose: './ContactForm' },
      ]),
    ).resolves.toEqual(['home ./Services', 'forms ./ContactForm']);
  });

  it('loads every module’s assets on a page the server did not render', async () => {
    await expect(assetsLoadedFor([{ remote: 'home', expose: './Hero' }])).resolves.toEqual(['home ./Hero']);
  });
});
