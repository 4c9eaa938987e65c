import { createInstance, type ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import taskPerSharedModulePlugin from './task-per-shared-module-plugin';

const library = { name: 'shared-lib' };

// A page whose shell provides a shared library, asked for through the real federation runtime.
function pageProviding(name: string, plugins: ModuleFederationRuntimePlugin[]) {
  return createInstance({
    name,
    remotes: [],
    plugins,
    shared: {
      'shared-lib': [
        { version: '1.0.0', get: () => Promise.resolve(() => library), shareConfig: { singleton: true, requiredVersion: '^1.0.0' } },
      ],
    },
  });
}

/** The order in which the shared library resolves and a task queued right after asking for it runs. */
async function resolutionOrder(plugins: ModuleFederationRuntimePlugin[], name: string) {
  const events: string[] = [];
  const loading = pageProviding(name, plugins)
    .loadShare<typeof library>('shared-lib')
    .then((factory) => events.push(factory && factory() === library ? 'library resolved' : 'wrong library'));
  setTimeout(() => events.push('browser turn'), 0);
  await loading;
  await new Promise((resolve) => setTimeout(resolve, 0));
  return events;
}

describe('taskPerSharedModulePlugin', () => {
  it('resolves a shared library in a task after the one that asked for it, unchanged', async () => {
    await expect(resolutionOrder([taskPerSharedModulePlugin()], 'task_page')).resolves.toEqual(['browser turn', 'library resolved']);
  });

  it('without it the runtime resolves the library within the asking task', async () => {
    await expect(resolutionOrder([], 'plain_task_page')).resolves.toEqual(['library resolved', 'browser turn']);
  });

  it("evaluates the library in a task of its own once its chunk has arrived, and hands it on in the next", async () => {
    const events: string[] = [];
    const later = (event: string) => setTimeout(() => events.push(event), 0);
    const evaluate = () => {
      events.push('library evaluated');
      later('browser turn after evaluating');
      return library;
    };
    const page = createInstance({
      name: 'evaluating_page',
      remotes: [],
      plugins: [taskPerSharedModulePlugin()],
      shared: {
        'shared-lib': [
          {
            version: '1.0.0',
            get: () => {
              events.push('chunk arrived');
              later('browser turn after arrival');
              return Promise.resolve(evaluate);
            },
            shareConfig: { singleton: true, requiredVersion: '^1.0.0' },
          },
        ],
      },
    });
    const factory = await page.loadShare<typeof library>('shared-lib');
    events.push('asker continues');
    expect(factory && factory()).toBe(library);
    expect(factory && factory()).toBe(library);
    expect(events).toEqual(['chunk arrived', 'browser turn after arrival', 'library evaluated', 'browser turn after evaluating', 'asker continues']);
  });
});
