// Jest's own order (what failed last time first, then the slowest), with the browser suites after
// every other: in `npm test` the lighter unit and API suites share the cores with the container
// lane while it builds and converges, and the suites that drive Chromium mostly come after it.
const Sequencer = require('@jest/test-sequencer').default;

const isBrowserSuite = (test) => test.context.config.displayName?.name === 'e2e';

class TestSequencer extends Sequencer {
  async sort(tests) {
    const sorted = await super.sort(tests);
    return [...sorted.filter((test) => !isBrowserSuite(test)), ...sorted.filter(isBrowserSuite)];
  }
}

module.exports = TestSequencer;
