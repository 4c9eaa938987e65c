import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { findChromium } from './chromium';

/**
 * Runs once before the browser suite: brings the production builds up to date, and decides
 * whether the suite can run at all. Without Chromium it is skipped loudly, except under CI.
 */
export default function globalSetup(): void {
  if (!findChromium()) {
    const message = 'No Chromium found (install Debian\'s `chromium-headless-shell` or `chromium` package, or set CHROMIUM_PATH).';
    if (process.env.CI) throw new Error(`${message} The end-to-end suite cannot be skipped in CI.`);
    console.warn(`\n\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n!! E2E SUITE SKIPPED: ${message}\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n`);
    process.env.E2E_SKIP = '1';
    return;
  }
  const root = path.resolve(__dirname, '../..');
  const result = spawnSync(process.execPath, [path.join(root, 'scripts/build-if-stale.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('Building the site for the end-to-end suite failed');
}
