import { createInstance, type ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import singletonSharePlugin from './singleton-share-plugin';

// A page where the shell has provided (and loaded) a shared singleton, and an app asks for it in
// a range that version does not satisfy, through the real federation runtime.
function appOnPage(name: string, plugins: ModuleFederationRuntimePlugin[]) {
  const providedLib = { provided: true };
  const app = createInstance({
    name,
    remotes: [],
    plugins,
    shared: {
      'shared-lib': [
        { version: '1.4.0', lib: () => providedLib, shareConfig: { singleton: true, requiredVersion: '^1.0.0' } },
      ],
    },
  });
  return { app, providedLib };
}

const ASKED = { customShareInfo: { shareConfig: { singleton: true, requiredVersion: '^2.0.0' } } };

describe('singletonSharePlugin', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  it('hands a singleton to its consumer as the page has it, without the runtime’s range check', async () => {
    const { app, providedLib } = appOnPage('plugin_page', [singletonSharePlugin()]);
    const factory = await app.loadShare<typeof providedLib>('shared-lib', ASKED);
    expect(factory && factory()).toBe(providedLib);
    expect(warn).not.toHaveBeenCalled();
  });

  it('changes nothing the runtime decides: without it the same singleton is handed out, with a warning', async () => {
    const { app, providedLib } = appOnPage('plain_page', []);
    const factory = await app.loadShare<typeof providedLib>('shared-lib', ASKED);
    expect(factory && factory()).toBe(providedLib);
    expect(warn.mock.calls.flat().join(' ')).toMatch(/does not satisfy the requirement/);
  });
});
