import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';

/**
 * Federation runtime plugin for production builds: a shared singleton resolves to the version the
 * page already has without the runtime's semver check of the consumer's range.
 *
 * That check never changes the outcome for a singleton (a mismatch is only logged, since no app
 * asks for `strictVersion`), yet it parses the range by compiling a dozen regular expressions
 * afresh on every call: about 10 ms of main-thread work per app on a page load, four times that on
 * a mid-range phone. Ranges are checked where a mismatch can still be stopped instead: the release
 * gate refuses a release whose singletons do not fit the live shell or remotes, before it goes
 * live. Development builds keep the runtime's warning.
 */
export default function singletonSharePlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'agency-singleton-share',
    resolveShare(args) {
      if (!args.shareInfo.shareConfig?.singleton) return args;
      const shared = args.shareScopeMap[args.scope]?.[args.pkgName]?.[args.version];
      if (shared) args.resolver = () => ({ shared, useTreesShaking: false });
      return args;
    },
  };
}
