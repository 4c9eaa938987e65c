// The one list of singletons shared by the shell and every remote. Keeping it in one place is
// what guarantees a single React (and a single toast store) on the page.
const SINGLETONS = [
  'react',
  'react/',
  'react-dom',
  'react-dom/',
  'react-router',
  'react-router-dom',
  'react-toastify',
  'axios',
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
      const version = declaredVersion(packageJson, key);
      return [key, { singleton: true, requiredVersion: version ? `^${version}` : false }];
    }),
  );
}

module.exports = { SINGLETONS, createSharedConfig };
