// The one list of singletons shared by the shell and every remote. Keeping it in one place is
// what guarantees a single React (and a single toast store) on the page.

/**
 * The apps' routing module (shared/src/routing/router.ts) stands in for react-router and
 * react-router-dom, which are no longer shared by themselves: a shared package is never
 * tree-shaken, so all of react-router went to every visitor. Inside this one module it is cut
 * down to what the apps use, and it is still one instance on the page (a lint rule keeps the apps
 * from importing react-router directly). It is versioned as the react-router it wraps, so the
 * release gate still compares router versions.
 */
const ROUTER = '@agency/shared/router';
const ROUTER_PACKAGE = 'react-router-dom';

const SINGLETONS = [
  'react',
  'react/',
  'react-dom',
  'react-dom/',
  'react-toastify',
  'axios',
  ROUTER,
];

/** Version each app declares for a shared key; subpath keys follow their package. */
function declaredVersion(packageJson, key) {
  const packageName = key.replace(/\/$/, '');
  const deps = { ...packageJson.dependencies, ...packageJson.devDependencies };
  // react-router ships in lockstep with react-router-dom, which is what the apps depend on.
  return deps[packageName] ?? (packageName === 'react-router' ? deps['react-router-dom'] : undefined);
}

function createSharedConfig(packageJson) {
  return Object.fromEntries(
    SINGLETONS.map((key) => {
      if (key === ROUTER) {
        const wrapped = require(`${ROUTER_PACKAGE}/package.json`).version;
        const declared = declaredVersion(packageJson, ROUTER_PACKAGE);
        return [key, { singleton: true, version: wrapped, requiredVersion: declared ? `^${declared}` : false }];
      }
      const version = declaredVersion(packageJson, key);
      return [key, { singleton: true, requiredVersion: version ? `^${version}` : false }];
    }),
  );
}

module.exports = { SINGLETONS, createSharedConfig };
