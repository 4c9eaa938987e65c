// One jest run covers every workspace: each project below is one suite with its own environment.
const path = require('node:path');
const { BROWSER_APP_FOLDERS, SHARED_FOLDER, API } = require('./shared/webpack/apps.js');
const { apiProjectName } = require('./scripts/jest/suites.js');

const tsTransform = {
  '^.+\\.tsx?$': ['ts-jest', { tsconfig: path.join(__dirname, 'tsconfig.jest.json'), diagnostics: false }],
};

const sharedModuleMap = {
  '^@agency/shared$': path.join(__dirname, 'shared/src/index.ts'),
  '^@agency/shared/contracts$': path.join(__dirname, 'shared/src/contracts/index.ts'),
  '^@agency/shared/slug$': path.join(__dirname, 'shared/src/format/slug-from-title.ts'),
  '^@agency/shared/api-client$': path.join(__dirname, 'shared/src/api/api-client.ts'),
  '^@agency/shared/data$': path.join(__dirname, 'shared/src/data/index.ts'),
  '^@agency/shared/router$': path.join(__dirname, 'shared/src/routing/router.ts'),
};

/** A browser-app suite: jsdom, CSS modules as class-name proxies, assets as file names. */
function browserProject(dir) {
  return {
    displayName: dir,
    rootDir: path.join(__dirname, dir),
    testEnvironment: 'jsdom',
    testMatch: ['<rootDir>/src/**/*.test.ts?(x)'],
    transform: tsTransform,
    setupFilesAfterEnv: [path.join(__dirname, 'scripts/jest/setup-dom.ts')],
    moduleNameMapper: {
      ...sharedModuleMap,
      '\\.module\\.css$': 'identity-obj-proxy',
      '\\.css$': path.join(__dirname, 'scripts/jest/style-stub.js'),
      '\\.(png|jpe?g|webp|svg|woff2?)$': path.join(__dirname, 'scripts/jest/file-stub.js'),
    },
  };
}

// Published as ES modules only: Node 22 and later require them as they are, Jest's CommonJS loader
// needs them compiled. Fastify's inject (which page renders fetch their data with) uses cookie 2;
// backups are sealed with age-encryption, which is built on @noble and @scure.
const ESM_ONLY_DEPENDENCIES = ['light-my-request/node_modules/cookie/', 'age-encryption/', '@noble/', '@scure/'];
const esmOnlyPattern = `(${ESM_ONLY_DEPENDENCIES.map((folder) => folder.replace(/[/.]/g, (c) => `\\${c}`)).join('|')})`;
const esmOnlyTransform = {
  [`/node_modules/${esmOnlyPattern}.+\\.js$`]: ['ts-jest', { tsconfig: { allowJs: true, module: 'CommonJS', isolatedModules: true }, diagnostics: false }],
};

/** The API suite, run once per database dialect. */
function apiProject(dialect) {
  return {
    displayName: apiProjectName(dialect),
    rootDir: path.join(__dirname, API.folder),
    testEnvironment: 'node',
    testMatch: ['<rootDir>/test/**/*.test.ts'],
    transform: { ...tsTransform, ...esmOnlyTransform },
    transformIgnorePatterns: [`^(?!.*/node_modules/${esmOnlyPattern}).*/node_modules/`],
    moduleNameMapper: sharedModuleMap,
    setupFiles: [`<rootDir>/test/setup/dialect-${dialect}.ts`],
    setupFilesAfterEnv: ['<rootDir>/test/setup/test-timeout.ts'],
    globalSetup: `<rootDir>/test/setup/${dialect === 'postgres' ? 'build-and-postgres' : 'build'}-global-setup.mjs`,
    globalTeardown: dialect === 'postgres' ? '<rootDir>/test/setup/postgres-global-teardown.mjs' : undefined,
  };
}

module.exports = {
  // Each test file leaves some of its modules behind in its worker (about 12 MB an API file), and
  // a worker that ran a hundred files spends its time collecting garbage: one that holds more than
  // this after a file is replaced by a new one.
  workerIdleMemoryLimit: '1GB',
  // The timing reporter writes each suite's time where JEST_TIMINGS_FILE says (scripts/test.mjs).
  reporters: ['default', path.join(__dirname, 'scripts/jest/timing-reporter.js')],
  testSequencer: path.join(__dirname, 'scripts/jest/test-sequencer.js'),
  projects: [
    {
      displayName: SHARED_FOLDER,
      rootDir: path.join(__dirname, SHARED_FOLDER),
      testEnvironment: 'node',
      testMatch: ['<rootDir>/{src,webpack,typecheck,deploy}/**/*.test.ts?(x)'],
      transform: tsTransform,
    },
    ...BROWSER_APP_FOLDERS.map(browserProject),
    apiProject('sqlite'),
    apiProject('postgres'),
    {
      displayName: 'e2e',
      rootDir: path.join(__dirname, 'e2e'),
      testEnvironment: 'node',
      testMatch: ['<rootDir>/**/*.e2e.test.ts'],
      // Suites that start the API in-process (its helpers) load its backups' age-encryption too.
      transform: { ...tsTransform, ...esmOnlyTransform },
      transformIgnorePatterns: [`^(?!.*/node_modules/${esmOnlyPattern}).*/node_modules/`],
      moduleNameMapper: sharedModuleMap,
      globalSetup: '<rootDir>/support/global-setup.ts',
      setupFilesAfterEnv: ['<rootDir>/support/jest-setup.ts'],
    },
  ],
};
