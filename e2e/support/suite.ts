import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser';
import { startSite, type RunningSite } from './site';

export interface SiteAndBrowser {
  browser: Browser;
  site: RunningSite;
}

/**
 * Starts one Chromium and one composed site for the enclosing `describe` block and stops both
 * after it. Read `browser` and `site` inside tests and later hooks, once they have started.
 * `env` may be a function, read when the site starts (after earlier `beforeAll` hooks).
 */
export function setUpSiteAndBrowser(env: Record<string, string> | (() => Record<string, string>) = {}): SiteAndBrowser {
  const suite = {} as SiteAndBrowser;
  beforeAll(async () => {
    [suite.browser, suite.site] = await Promise.all([launchBrowser(), startSite(typeof env === 'function' ? env() : env)]);
  });
  afterAll(async () => {
    await Promise.all([suite.browser?.close(), suite.site?.stop()]);
  });
  return suite;
}
