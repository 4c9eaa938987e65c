import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';

type ResolveShareHook = NonNullable<ModuleFederationRuntimePlugin['resolveShare']>;

/** One library in the page's share scope, as the federation runtime keeps it. */
export type SharedEntry = NonNullable<ReturnType<Parameters<ResolveShareHook>[0]['resolver']>>['shared'];

/**
 * A runtime plugin's `resolveShare` hook that hands each share-scope entry the runtime resolves to
 * `adapt`, once: the runtime resolves the same entry again for every app that asks for it.
 */
export function onEachResolvedShare(adapt: (shared: SharedEntry) => void): ResolveShareHook {
  const adapted = new WeakSet<SharedEntry>();
  return (args) => {
    const resolve = args.resolver;
    args.resolver = () => {
      const resolved = resolve();
      const shared = resolved?.shared;
      if (shared && !adapted.has(shared)) {
        adapted.add(shared);
        adapt(shared);
      }
      return resolved;
    };
    return args;
  };
}
