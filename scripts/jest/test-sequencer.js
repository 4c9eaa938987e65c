// Jest's own order (what failed last time first, then the slowest), with the suites that time
// their system under test moved to the end: by then the container suites, which run beside the
// rest in `npm test`, are over, and these run with the machine to themselves.
const Sequencer = require('@jest/test-sequencer').default;
const { CONTENTION_SENSITIVE_SUITES } = require('./suites.js');

const isSensitive = (test) => CONTENTION_SENSITIVE_SUITES.some((file) => test.path.endsWith(file));

class TestSequencer extends Sequencer {
  async sort(tests) {
    const sorted = await super.sort(tests);
    return [...sorted.filter((test) => !isSensitive(test)), ...sorted.filter(isSensitive)];
  }
}

module.exports = TestSequencer;
