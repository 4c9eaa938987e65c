import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { slotInPage } from './slot-in-page';

/**
 * Runtime plugin: loading a module the page already shows does not make the runtime load that
 * module's assets a second time.
 *
 * On each load the runtime reads the remote's manifest and adds the module's stylesheets and
 * scripts to the page itself, matching existing tags by full URL. The server's page links them by
 * path (with its preloads), so the runtime missed them: every server-rendered module's stylesheet
 * was added again, costing the page a full style recalculation and layout, and the manifest walk
 * cost 10–25 ms of main-thread work at start-up (profiles of `/`, two modules). Modules that
 * render only in the browser (a page reached by navigating in it) keep the runtime's parallel
 * loading of their assets.
 */
export default function serverPreloadedAssetsPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'agency-server-preloaded-assets',
    beforePreloadRemote(args) {
      const needed = args.preloadOps.filter(
        (op) => !op.exposes?.length || !op.exposes.every((expose) => slotInPage(`${op.nameOrAlias}/${expose.replace(/^\.\//, '')}`)),
      );
      // The runtime reads the list back after its plugins have run.
      args.preloadOps.splice(0, args.preloadOps.length, ...needed);
    },
  };
}
