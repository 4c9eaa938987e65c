// npm run bench:proof — what the forms' invisible proof-of-work costs a person. Builds what is
// stale, serves the production site (SQLite, a fresh database), and in the local Chromium, with
// its CPU slowed by Chromium's own throttling (as DevTools' "4× slowdown" does, a mid-range
// phone), opens `/`, focuses the contact form's first field as a person does and reads how long
// the form's script took from the challenge's arrival to its solution (the form's User Timing
// measure, the solver's chunk load included). Also the JavaScript the page loaded before the form
// was used, and what the solver's chunk adds. Options: --runs <n> (default 15), --rate <n> (the
// CPU slowdown, default 4; 1 for none).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startApi, stop } from './bench-servers.mjs';
import { buildIfStale } from './build-if-stale.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return Number(index >= 0 ? args[index + 1] : fallback);
};
const RUNS = option('runs', 15);
const RATE = option('rate', 4);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = createRequire(import.meta.url)('../e2e/support/chromium-args.json');

buildIfStale();
const { PROOF_OF_WORK_MEASURE, SECTION_IDS } = await import('@agency/shared');

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

/** One visit: the page at `rate`, the form focused, the measure read; and the scripts' bytes before and after. */
async function visit(browser, base) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: RATE });
  const scripts = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    const bytes = Number((await response.request().sizes().catch(() => ({ responseBodySize: 0 }))).responseBodySize);
    scripts.push({ url: response.url(), bytes, atUse: false });
  });
  await page.goto(`${base}/`, { waitUntil: 'load' });
  const field = page.locator(`#${SECTION_IDS.contact} form input`).first();
  await field.scrollIntoViewIfNeeded();
  await field.waitFor();
  // The form's script is in once React has hydrated it.
  await field.evaluate(
    (element) =>
      new Promise((resolve) => {
        const check = () => (Object.keys(element).some((key) => key.startsWith('__reactFiber')) ? resolve() : setTimeout(check, 50));
        check();
      }),
  );
  await page.waitForLoadState('networkidle');
  const beforeUse = scripts.reduce((total, script) => total + script.bytes, 0);
  const loadedBeforeUse = scripts.length;
  await field.focus();
  const solvedMs = await page.evaluate(
    (name) =>
      new Promise((resolve) => {
        const read = () => {
          const [entry] = performance.getEntriesByName(name);
          if (entry) resolve(entry.duration);
          else setTimeout(read, 20);
        };
        read();
      }),
    PROOF_OF_WORK_MEASURE,
  );
  const solver = scripts.slice(loadedBeforeUse).filter((script) => /solve-proof/.test(script.url));
  await context.close();
  return { solvedMs, beforeUseKiB: beforeUse / 1024, solverKiB: solver.reduce((total, script) => total + script.bytes, 0) / 1024, solverBeforeUse: scripts.slice(0, loadedBeforeUse).some((script) => /solve-proof/.test(script.url)) };
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-bench-proof-'));
const api = await startApi(dataDir);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
try {
  // The first visit warms the page cache and the server's bundles; it is not counted.
  await visit(browser, api.base);
  const visits = [];
  for (let run = 0; run < RUNS; run += 1) visits.push(await visit(browser, api.base));
  const times = visits.map((one) => one.solvedMs);
  console.log(`Proof-of-work in Chromium at ${RATE}× CPU slowdown, ${RUNS} visits of /:`);
  console.log(`  solved in: median ${quantile(times, 0.5).toFixed(0)} ms, p90 ${quantile(times, 0.9).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms`);
  console.log(`  JavaScript before the form is used: median ${quantile(visits.map((one) => one.beforeUseKiB), 0.5).toFixed(1)} KiB (as sent)`);
  console.log(`  the solver's chunk, loaded on first use: ${quantile(visits.map((one) => one.solverKiB), 0.5).toFixed(1)} KiB; loaded before use in ${visits.filter((one) => one.solverBeforeUse).length} of ${RUNS} visits`);
} finally {
  await browser.close();
  stop(api.child);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
