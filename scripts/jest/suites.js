// Which jest suites each test command runs (scripts/test.mjs, jest.config.js).
const { BROWSER_APP_FOLDERS, SHARED_FOLDER } = require('../../shared/webpack/apps.js');

/** The API suite's project for one database dialect. */
const apiProjectName = (dialect) => `api-${dialect}`;

module.exports = {
  apiProjectName,
  /** The suites that run the site in containers on a real Docker engine, beside the rest in `npm test`. */
  CONTAINER_SUITES: ['e2e/docker-compose.e2e.test.ts', 'e2e/docker-swarm.e2e.test.ts'],
  /**
   * Suites that count renders and read headers of several processes behind nginx while pages load:
   * `npm test` runs them after the container suites, in their lane, at a priority above the rest.
   * Beside the container suites this one once counted a render too many, and once got a page
   * without its headers.
   */
  CONTENTION_SENSITIVE_SUITES: ['e2e/container-topology.e2e.test.ts'],
  /** `npm run test:quick`: what needs neither a browser, PostgreSQL nor a container engine. */
  QUICK_PROJECTS: [SHARED_FOLDER, ...BROWSER_APP_FOLDERS, apiProjectName('sqlite')],
};
