import type { Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { runStaffCommand, type RunningSite } from './site';

// The staff console as its people use it: invited from the server, joined with an authenticator app.

/** A code of the authenticator app with `secret`, `stepsAhead` steps from now (each step is spent once). */
export const totpCode = (secret: string, stepsAhead = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: Date.now() + stepsAhead * 30_000 });

/** How far the page is wider than the screen (0 when nothing needs a sideways scroll). */
export const horizontalOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

export function invitationLink(site: RunningSite, email: string, role: string): string {
  const output = runStaffCommand(site, 'invite', email, '--role', role);
  const link = /(http\S+\/staff\/invite#\S+)/.exec(output)?.[1];
  if (!link) throw new Error(`no link in: ${output}`);
  return link;
}

/** Accepts an invitation with an authenticator app; resolves to the app's secret and the recovery codes shown. */
export async function joinWithApp(page: Page, link: string): Promise<{ secret: string; codes: string[] }> {
  await page.goto(link);
  await page.getByRole('button', { name: 'Використати застосунок-автентифікатор' }).click();
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  await expect(page.getByRole('img', { name: 'QR-код для застосунку-автентифікатора' }).getAttribute('src')).resolves.toMatch(/^data:image\/png;base64,/);
  await page.getByLabel('Код із застосунку').fill(totpCode(secret));
  await page.getByRole('button', { name: 'Підтвердити' }).click();
  await page.getByTestId('recovery-codes').waitFor();
  const codes = await page.getByTestId('recovery-codes').locator('li').allTextContents();
  await page.getByRole('button', { name: 'Я зберіг коди' }).click();
  await page.getByRole('heading', { name: 'Заявки' }).waitFor();
  return { secret, codes };
}
