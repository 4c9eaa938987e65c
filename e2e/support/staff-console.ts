import type { Browser, Page } from 'playwright-core';
import { openPage } from './browser';
import { Secret, TOTP } from 'otpauth';
import { runStaffCommand, type RunningSite } from './site';

// The staff console as its people use it: invited from the server, joined with an authenticator app.

/** A code of the authenticator app with `secret`, `stepsAhead` steps from now (each step is spent once). */
export const totpCode = (secret: string, stepsAhead = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: Date.now() + stepsAhead * 30_000 });

/** How far the page is wider than the screen (0 when nothing needs a sideways scroll). */
export const horizontalOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** An invitation made with `npm run staff -- invite`; a release manager's (`release_manager`) names their `apps`. */
export function invitationLink(site: RunningSite, email: string, role: string, apps?: readonly string[]): string {
  const output = runStaffCommand(site, 'invite', email, '--role', role, ...(apps ? ['--apps', apps.join(',')] : []));
  const link = /(http\S+\/staff\/invite#\S+)/.exec(output)?.[1];
  if (!link) throw new Error(`no link in: ${output}`);
  return link;
}

/**
 * Accepts an invitation with an authenticator app; resolves to the app's secret and the recovery
 * codes shown, once the console shows the page its role lands on (`landing`'s heading: a release
 * manager's is «Релізи»).
 */
export async function joinWithApp(page: Page, link: string, landing = 'Заявки'): Promise<{ secret: string; codes: string[] }> {
  await page.goto(link);
  await page.getByRole('button', { name: 'Використати застосунок-автентифікатор' }).click();
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  const qrCode = page.getByRole('img', { name: 'QR-код для застосунку-автентифікатора' });
  await expect(qrCode.getAttribute('src')).resolves.toMatch(/^data:image\/svg\+xml;base64,/);
  // Drawn, not refused by the page's content policy or broken: the image has its size.
  await qrCode.evaluate((image: HTMLImageElement) => image.decode());
  await expect(qrCode.evaluate((image: HTMLImageElement) => image.naturalWidth)).resolves.toBe(240);
  await page.getByLabel('Код із застосунку').fill(totpCode(secret));
  await page.getByRole('button', { name: 'Підтвердити' }).click();
  await page.getByTestId('recovery-codes').waitFor();
  const codes = await page.getByTestId('recovery-codes').locator('li').allTextContents();
  await page.getByRole('button', { name: 'Я зберіг коди' }).click();
  await page.getByRole('heading', { level: 1, name: landing }).waitFor();
  return { secret, codes };
}

/** A page in a context of its own whose browser has a platform authenticator with user verification (a phone's or laptop's). */
export async function pageWithAuthenticator(browser: Browser, url?: string, viewport?: { width: number; height: number }): Promise<Page & { consoleErrors: string[] }> {
  const page = await openPage(browser, undefined, viewport ? { viewport } : {});
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  if (url) await page.goto(url);
  return page;
}

/** Accepts an invitation with a passkey (the page's virtual authenticator); signed in on the inbox after (or `landing`, as joinWithApp). */
export async function joinWithPasskey(page: Page, link: string, landing = 'Заявки'): Promise<void> {
  await page.goto(link);
  await page.getByRole('button', { name: 'Зареєструвати ключ доступу' }).click();
  await page.getByTestId('recovery-codes').waitFor();
  await page.getByRole('button', { name: 'Я зберіг коди' }).click();
  await page.getByRole('heading', { level: 1, name: landing }).waitFor();
}

/**
 * A browser context of its own signed in as a release manager of `apps` (invited as `email`,
 * joined with a passkey), on «Релізи», where a release manager lands.
 */
export async function releaseManagerPage(
  browser: Browser,
  site: RunningSite,
  email: string,
  apps: readonly string[],
  viewport?: { width: number; height: number },
): Promise<Page & { consoleErrors: string[] }> {
  const page = await pageWithAuthenticator(browser, undefined, viewport);
  await joinWithPasskey(page, invitationLink(site, email, 'release_manager', apps), 'Релізи');
  return page;
}
