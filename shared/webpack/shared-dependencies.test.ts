// The singleton list is what keeps one React and one toast store on the page.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createSharedConfig } = require('./shared-dependencies.js');

describe('createSharedConfig', () => {
  const packageJson = {
    dependencies: { react: '19.3.1', 'react-dom': '19.3.1', 'react-router-dom': '7.18.5', 'react-toastify': '11.2.0', axios: '1.21.1' },
  };

  it('shares React, its subpaths, the routing module, toasts and axios as singletons', () => {
    const shared = createSharedConfig(packageJson);
    expect(Object.keys(shared).sort()).toEqual(
      ['axios', 'react', 'react-dom', 'react-dom/', '@agency/shared/router', 'react-toastify', 'react/'].sort(),
    );
    for (const entry of Object.values(shared) as { singleton: boolean }[]) expect(entry.singleton).toBe(true);
  });

  it('requires the versions the app declares, subpaths following their package', () => {
    const shared = createSharedConfig(packageJson);
    expect(shared['react/'].requiredVersion).toBe('^19.3.1');
    expect(shared['react-toastify'].requiredVersion).toBe('^11.2.0');
  });

  it('versions the routing module as the react-router it wraps, so the release gate compares router versions', () => {
    const shared = createSharedConfig(packageJson);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const installed = require('react-router-dom/package.json').version;
    expect(shared['@agency/shared/router']).toEqual({ singleton: true, version: installed, requiredVersion: '^7.18.5' });
    // An app without the router does not require one.
    expect(createSharedConfig({ dependencies: { react: '19.3.1' } })['@agency/shared/router'].requiredVersion).toBe(false);
  });
});
