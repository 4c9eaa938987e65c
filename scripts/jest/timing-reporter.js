// A jest reporter that writes how long each suite (test file, per project) took, for the table
// `npm test` ends with: jest's own --json output names the file but not its project, and the API
// suites run once per database.
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');

class TimingReporter {
  constructor() {
    this.outputFile = process.env.JEST_TIMINGS_FILE;
    this.suites = [];
  }

  onTestResult(test, result) {
    this.suites.push({
      project: test.context.config.displayName?.name ?? '',
      file: path.relative(ROOT, result.testFilePath),
      seconds: Math.max(0, result.perfStats.end - result.perfStats.start) / 1000,
      passed: result.numPassingTests,
      failed: result.numFailingTests + (result.testExecError ? 1 : 0),
    });
  }

  onRunComplete() {
    if (!this.outputFile) return;
    fs.mkdirSync(path.dirname(this.outputFile), { recursive: true });
    fs.writeFileSync(this.outputFile, JSON.stringify(this.suites, null, 1));
  }
}

module.exports = TimingReporter;
