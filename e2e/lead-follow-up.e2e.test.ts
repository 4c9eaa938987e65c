import type { Browser } from 'playwright-core';
import { SECTION_IDS, STAFF_PATHS, TOAST_MESSAGES } from '@agency/shared';
import { eventually } from '../api/test/helpers/eventually';
import { startHttpReceiver, startSmtpSink, type HttpReceiver, type SmtpSink } from '../api/test/helpers/lead-receivers';
import { describeInBrowser, launchBrowser, openPage } from './support/browser';
import { fillContact, submit } from './support/forms';
import { startSite, type RunningSite } from './support/site';
import { invitationLink, joinWithApp, pageWithAuthenticator } from './support/staff-console';

// What happens after a lead arrives, end to end: a visitor sends the contact form in Chromium and
// the test's SMTP server gets their reply; the same person writes again and the console shows them
// once; leads left unanswered past a short target bring one Telegram alert each to the test's
// receiver. The API's follow-up clock starts on a working Tuesday at 10:00 (Kyiv) and runs 30 times
// as fast (TEST_CLOCK_*), so working time passes whenever the suite runs. On SQLite only: the API
// suites run the follow-up on both databases.
jest.setTimeout(180_000);

const VISITOR = 'andrii.followup@example.com';
const TEAM_CHAT = '-100200300';

/** 10:00 in Kyiv on the next Tuesday but one (a working day in winter or summer time alike). */
function nextTuesdayTen(): string {
  const day = new Date();
  day.setUTCDate(day.getUTCDate() + 7 + ((9 - day.getUTCDay()) % 7));
  return `${day.toISOString().slice(0, 10)}T10:00:00+02:00`;
}

describe('the follow-up of leads', () => {
  describeInBrowser('in Chromium', () => {
    let browser: Browser;
    let site: RunningSite;
    let smtp: SmtpSink;
    let telegram: HttpReceiver;

    beforeAll(async () => {
      [smtp, telegram] = await Promise.all([startSmtpSink(), startHttpReceiver()]);
      [browser, site] = await Promise.all([
        launchBrowser(),
        startSite(
          {
            SMTP_URL: smtp.url,
            LEADS_EMAIL_TO: 'leads@khvylia.example',
            TELEGRAM_BOT_TOKEN: '1:token',
            TELEGRAM_CHAT_ID: TEAM_CHAT,
            TELEGRAM_API_URL: telegram.url,
            TEST_CLOCK_START: nextTuesdayTen(),
            TEST_CLOCK_RATE: '30',
            STAFF_OVERDUE_CHECK_SECONDS: '1',
          },
          { siteHost: 'localhost' },
        ),
      ]);
    });

    afterAll(async () => {
      await Promise.all([browser?.close(), site?.stop(), smtp?.close(), telegram?.close()]);
    });

    /** A visit to the home page that sends the contact form as the visitor. */
    async function sendContactForm(): Promise<void> {
      const page = await openPage(browser, `${site.siteUrl}/`);
      const form = page.locator(`#${SECTION_IDS.contact} form`);
      await fillContact(form, VISITOR);
      await submit(form, 'Надіслати повідомлення');
      await page.getByText(TOAST_MESSAGES.contactSuccess).waitFor();
      await page.context().close();
    }

    const alerts = () =>
      telegram
        .accepted()
        .map((request) => JSON.parse(request.body) as { chat_id: string; text: string })
        .filter((message) => message.text.startsWith('⏰'));

    it('replies to the visitor, shows a person who writes again once, and alerts once about each lead left unanswered', async () => {
      await sendContactForm();
      const [reply] = await eventually('the reply to the visitor', () => smtp.sentTo(VISITOR), (mails) => mails.length === 1, 15_000);
      const number = /№(\d+)/.exec(reply!.subject ?? '')?.[1];
      expect(number).toBeDefined();
      expect(reply!.text).toContain(`Ваше звернення отримано, його номер №${number}.`);
      expect(reply!.text).toContain('Потрібне ведення Instagram для двох кавʼярень.');

      // The same person again, from another visit: their own reply, with the next number.
      await sendContactForm();
      const replies = await eventually('the second reply', () => smtp.sentTo(VISITOR), (mails) => mails.length === 2, 15_000);
      const second = /№(\d+)/.exec(replies[1]!.subject ?? '')?.[1];
      expect(Number(second)).toBeGreaterThan(Number(number));

      // The console lists them once, with their two leads.
      const page = await pageWithAuthenticator(browser);
      await joinWithApp(page, invitationLink(site, 'owner@khvylia.example', 'admin'));
      const rows = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Андрій Шевчук' }) });
      await rows.first().waitFor();
      expect(await rows.count()).toBe(1);
      await rows.getByText('2 звернення').waitFor();
      expect(alerts()).toHaveLength(0);

      // A short target (2 working minutes): both leads, unanswered, are past it.
      await page.goto(`${site.siteUrl}${STAFF_PATHS.followUp}`);
      const settings = page.locator('form[aria-labelledby="follow-up-settings"]');
      await settings.getByLabel('Час на першу відповідь, робочих хвилин').fill('2');
      await settings.getByRole('button', { name: 'Зберегти' }).click();
      await settings.getByText('Збережено.', { exact: false }).waitFor();

      const sent = await eventually('an alert for each lead', alerts, (messages) => messages.length >= 2, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      expect(alerts()).toHaveLength(2);
      expect(sent.map((message) => message.chat_id)).toEqual([TEAM_CHAT, TEAM_CHAT]);
      expect(alerts().map((message) => /Заявка №(\d+)/.exec(message.text)?.[1]).sort()).toEqual([number, second].sort());

      // The inbox flags the person's newest lead as overdue.
      await page.goto(`${site.siteUrl}${STAFF_PATHS.home}`);
      await rows.getByText('Прострочено').waitFor();
      await page.context().close();
    });
  });
});
