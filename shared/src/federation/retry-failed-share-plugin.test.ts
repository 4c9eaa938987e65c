import { createInstance, type ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import retryFailedSharePlugin from './retry-failed-share-plugin';

const library = { name: 'shared-lib' };

/**
 * A page whose shell provides a shared library whose first fetch fails, asked for twice through
 * the real federation runtime. Returns what each request got and how often the chunk was fetched.
 */
async function askTwiceAfterAFailedFetch(name: string, plugins: ModuleFederationRuntimePlugin[]) {
  let fetches = 0;
  const page = createInstance({
    name,
    remotes: [],
    plugins,
    shared: {
      'shared-lib': [
        {
          version: '1.0.0',
          get: () => {
            fetches += 1;
            return fetches === 1 ? Promise.reject(new Error('Loading chunk 8 failed.')) : Promise.resolve(() => library);
          },
          shareConfig: { singleton: true, requiredVersion: '^1.0.0' },
        },
      ],
    },
  });
  const ask = () =>
    page.loadShare<typeof library>('shared-lib').then(
      (factory) => (factory && factory() === library ? 'library' : 'wrong library'),
      (error: Error) => `failed: ${error.message}`,
    );
  const first = await ask();
  const second = await ask();
  return { first, second, fetches };
}

describe('retryFailedSharePlugin', () => {
  let consoleError: jest.SpyInstance;
  beforeEach(() => {
    consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => consoleError.mockRestore());

  it('fetches a shared library again when it is next asked for after a failed fetch', async () => {
    await expect(askTwiceAfterAFailedFetch('retry_page', [retryFailedSharePlugin()])).resolves.toEqual({
      first: 'failed: Loading chunk 8 failed.',
      second: 'library',
      fetches: 2,
    });
  });

  it('without it the runtime answers every later request with the failed fetch', async () => {
    await expect(askTwiceAfterAFailedFetch('plain_retry_page', [])).resolves.toEqual({
      first: 'failed: Loading chunk 8 failed.',
      second: 'failed: Loading chunk 8 failed.',
      fetches: 1,
    });
  });
});
