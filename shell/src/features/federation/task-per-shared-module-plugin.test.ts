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
});
