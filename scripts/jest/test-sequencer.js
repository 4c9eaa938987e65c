// Jest's own order (what failed last time first, then the slowest), with the browser suites after
// every other: in `npm test` the container lane, which runs beside this run and takes both cores
// in turns, is over by then, and the suites that drive Chromium and time servers get them.
const Sequencer = require('@jest/test-sequencer').default;

const isBrowserSuite = (test) => test.context.config.displayName?.name === 'e2e';

class TestSequencer extends Sequencer {
  async sort(tests) {
    const sorted = await super.sort(tests);
    return [...sorted.filter((test) => !isBrowserSuite(test)), ...sorted.filter(isBrowserSuite)];
  }
}

module.exports = TestSequencer;
