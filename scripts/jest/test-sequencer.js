// Jest's own order (what failed last time first, then the slowest it has seen), with the browser
// suites first when it has seen none (a clean clone): they are the longest, and a run whose last
// worker starts one of them at the end waits for it alone.
const Sequencer = require('@jest/test-sequencer').default;

const isBrowserSuite = (test) => test.context.config.displayName?.name === 'e2e';

class TestSequencer extends Sequencer {
  async sort(tests) {
    const sorted = await super.sort(tests);
    const timed = sorted.some((test) => test.duration != null);
    return timed ? sorted : [...sorted.filter(isBrowserSuite), ...sorted.filter((test) => !isBrowserSuite(test))];
  }
}

module.exports = TestSequencer;
