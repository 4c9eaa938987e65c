import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';

/** Resolves in a later task, so the browser can paint and handle input in between. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Federation runtime plugin: at start-up the runtime resolves each shared library (React, React
 * DOM, the router, the toasts) in a task of its own.
 *
 * Without it, main.js's task ended in one burst of microtasks in which the runtime resolved every
 * shared module the bootstrap chunk consumes (15–20 ms here, on top of main.js's own 25–50 ms),
 * which a phone's slower CPU turns into one long blocking stretch while the page is already on
 * screen. The chunks are being fetched meanwhile, so the yields cost no time.
 *
 * What the bootstrap chunk evaluates once it arrives (React DOM, the router, hydrateRoot) stays in
 * that chunk's task on purpose: split from it, the load event can fire before React's root
 * listens, and a tap made at that moment is lost (composition e2e test).
 */
export default function taskPerSharedModulePlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'agency-task-per-shared-module',
    async beforeLoadShare(args) {
      await nextTask();
      return args;
    },
  };
}
