import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { onEachResolvedShare, type SharedEntry } from '@agency/shared';

/** Resolves in a later task, so the browser can paint and handle input in between. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Makes the runtime evaluate a shared library in a task of its own once its chunk has arrived,
 * and hand it to whoever asked for it in the task after that.
 */
function evaluateApart(shared: SharedEntry): void {
  if (typeof shared.get !== 'function') return;
  const get = shared.get;
  shared.get = async () => {
    const factory = await get();
    await nextTask();
    const exports: unknown = factory();
    await nextTask();
    return () => exports;
  };
}

/**
 * Federation runtime plugin: at start-up each shared library (React, React DOM, the router) is
 * resolved, evaluated and handed on in tasks of its own.
 *
 * Without it, main.js's task ended in one burst of microtasks in which the runtime resolved every
 * shared module the bootstrap chunk consumes, and the task in which the last chunk arrived
 * evaluated React DOM, the router, the shell's components and hydrateRoot all at once (25–60 ms
 * here): a phone's slower CPU turns each into one long blocking stretch while the page is already
 * on screen. The chunks are being fetched meanwhile, so the yields cost next to no time. React's
 * root may now start listening after the page's load event: the first screen works without it
 * (its links are links, the phone menu a native popover).
 */
export default function taskPerSharedModulePlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'agency-task-per-shared-module',
    async beforeLoadShare(args) {
      await nextTask();
      return args;
    },
    resolveShare: onEachResolvedShare(evaluateApart),
  };
}
