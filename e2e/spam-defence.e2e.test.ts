import type { Page } from 'playwright-core';
import { FORM_RESULTS, FORM_TOKEN_FIELD, PROOF_OF_WORK_FIELD, SECTION_IDS, SERVICE_TYPES, TOAST_MESSAGES, type ContactMessage } from '@agency/shared';
import { createDatabase } from '../api/src/platform/db/connection';
import { eventually } from '../api/test/helpers/eventually';
import { startHttpReceiver, type HttpReceiver } from '../api/test/helpers/lead-receivers';
import { HUMAN_KIND_MINIMUMS, SPAM_CORPUS, type CorpusEntry } from '../api/test/site/leads/spam/spam-corpus';
import { describeInBrowser, openPage, waitForHydration } from './support/browser';
import type { RunningSite } from './support/site';
import { invitationLink, joinWithApp } from './support/staff-console';
import { setUpSiteAndBrowser } from './support/suite';

// The spam defence in a real Chromium against the real site, with a real webhook receiver: a
// person's lead, scripts on or off, reaches the inbox and the webhook; a bot's lands in «Спам»
// with its reasons and is sent nowhere, until someone in the console says «Не спам».
jest.setTimeout(120_000);

let webhook: HttpReceiver;

/** A person's pace: about 8 characters a second, and a pause to think before sending. */
const TYPING = { delay: 120 };

/** The stored lead of `email`: its status and its reasons (null when let through). */
async function leadOf(site: RunningSite, email: string): Promise<{ id: number; status: string; spam_reasons: string | null } | undefined> {
  const db = createDatabase(site.databaseUrl, { poolSize: 1 });
  try {
    const contact = await db.kysely.selectFrom('contact_messages').select('id').where('email', '=', email).executeTakeFirst();
    if (!contact) return undefined;
    const lead = await db.kysely.selectFrom('leads').select(['id', 'status', 'spam_reasons']).where('kind', '=', 'contact').where('submission_id', '=', contact.id).executeTakeFirstOrThrow();
    return { ...lead, id: Number(lead.id) };
  } finally {
    await db.destroy();
  }
}

/** The notifications ever queued for a lead (none for a held one). */
async function queuedFor(site: RunningSite, leadId: number): Promise<number> {
  const db = createDatabase(site.databaseUrl, { poolSize: 1 });
  try {
    const lead = await db.kysely.selectFrom('leads').select(['kind', 'submission_id']).where('id', '=', leadId).executeTakeFirstOrThrow();
    return (await db.kysely.selectFrom('lead_outbox').select('id').where('submission_kind', '=', lead.kind).where('submission_id', '=', lead.submission_id).execute()).length;
  } finally {
    await db.destroy();
  }
}

const deliveredTo = (email: string) => webhook.accepted().filter((request) => JSON.stringify(request.body).includes(email));

/** Who sends a contact message here: each a different person with a message of their own. */
interface Sender {
  name: string;
  email: string;
  message: string;
}

async function typeContact(page: Page, sender: Sender, pace?: { delay: number }): Promise<void> {
  const form = page.locator(`#${SECTION_IDS.contact} form`);
  const type = (label: RegExp, text: string) => (pace ? form.getByLabel(label).pressSequentially(text, pace) : form.getByLabel(label).fill(text));
  await type(/^Імʼя/, sender.name);
  await type(/^Електронна пошта/, sender.email);
  await type(/^Телефон/, '067 555 12 34');
  await type(/^Повідомлення/, sender.message);
}

const WITH_SCRIPTS: Sender = { name: 'Оксана Литвин', email: 'oksana.scripts@example.com', message: 'Доброго дня! Потрібна реклама для пекарні на Подолі.' };
const WITHOUT_SCRIPTS: Sender = { name: 'Тарас Мельник', email: 'taras.noscript@example.com', message: 'Вітаю, хочемо сайт і рекламу для автосервісу у Львові.' };
const FAST_BOT: Sender = { name: 'Ірина Бондар', email: 'fast.bot@example.com', message: 'Потрібне просування кавʼярні в Instagram, бюджет невеликий.' };

/**
 * People of the corpus the tests own (api/test/site/leads/spam/spam-corpus.ts) who write through
 * the contact form: of each kind, one who has scripts off (where the corpus has one) and one with
 * scripts on, as the corpus says each sends.
 */
function corpusPeopleSample(): CorpusEntry[] {
  const people = SPAM_CORPUS.filter((entry) => entry.who === 'human' && entry.form === 'contact');
  return Object.keys(HUMAN_KIND_MINIMUMS).flatMap((kind) => {
    const ofKind = people.filter((entry) => entry.kind === kind);
    const withoutScripts = ofKind.find((entry) => entry.delivery.channel === 'no-script');
    const withScripts = ofKind.find((entry) => entry.delivery.channel === 'script');
    return [withoutScripts, withScripts].filter((entry): entry is CorpusEntry => entry !== undefined);
  });
}

/** Types a corpus person's contact message into the page's form, every field at `TYPING`'s pace, and sends it. */
async function sendAsPerson(page: Page, entry: CorpusEntry): Promise<void> {
  const fields = entry.fields as ContactMessage;
  const scripts = entry.delivery.channel === 'script';
  const form = page.locator(`#${SECTION_IDS.contact} form`);
  if (scripts) await waitForHydration(form);
  const type = async (label: RegExp, text: string | undefined) => {
    // A message of a few hundred characters takes a person half a minute or more.
    if (text) await form.getByLabel(label).pressSequentially(text, { ...TYPING, timeout: 90_000 });
  };
  await type(/^Імʼя/, fields.name);
  await type(/^Електронна пошта/, fields.email);
  await type(/^Телефон/, fields.phone);
  await type(/^Компанія/, fields.company);
  const service = SERVICE_TYPES.find((option) => option.value === fields.service_type);
  if (service && scripts) {
    await form.getByLabel(/^Послуга/).click();
    await page.getByRole('option', { name: service.label }).click();
  } else if (service) await form.getByLabel(/^Послуга/).selectOption(service.value);
  await type(/^Повідомлення/, fields.message);
  const send = form.getByRole('button', { name: 'Надіслати повідомлення' });
  if (scripts) {
    await send.click();
    await page.getByText(TOAST_MESSAGES.contactSuccess).waitFor();
  } else {
    await Promise.all([page.waitForURL(/\/forms\/contact\/sent$/), send.click()]);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(FORM_RESULTS.contact.sent);
  }
}

describeInBrowser('the spam defence, in a browser', () => {
  // The receiver first: the site is started with its address.
  beforeAll(async () => {
    webhook = await startHttpReceiver();
  });
  afterAll(() => webhook?.close());
  // Each person of the corpus comes from their own address, as nginx would say it (here, the browser).
  const suite = setUpSiteAndBrowser(() => ({ LEADS_WEBHOOK_URL: `${webhook.url}/leads`, TRUST_PROXY: '127.0.0.1' }));

  it('sends a person’s lead, scripts on, with its token and proof, to the inbox and the webhook', async () => {
    const page = await openPage(suite.browser, suite.site.baseUrl);
    const form = page.locator(`#${SECTION_IDS.contact} form`);
    await waitForHydration(form);
    const posted = page.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith('/api/contact'));
    await typeContact(page, WITH_SCRIPTS, TYPING);
    await form.getByRole('button', { name: 'Надіслати повідомлення' }).click();
    const body = JSON.parse((await posted).postData() ?? '{}') as Record<string, unknown>;
    expect(body[FORM_TOKEN_FIELD]).toEqual(expect.stringMatching(/^contact\./));
    expect(body[PROOF_OF_WORK_FIELD]).toEqual(expect.any(String));
    await page.getByText(TOAST_MESSAGES.contactSuccess).waitFor();
    await eventually('the webhook delivery', () => deliveredTo(WITH_SCRIPTS.email).length, (count) => count === 1);
    expect(await leadOf(suite.site, WITH_SCRIPTS.email)).toMatchObject({ status: 'new', spam_reasons: null });
    await page.context().close();
  });

  it('sends a person’s lead, scripts off, with the token the page carried, to the inbox and the webhook', async () => {
    const page = await openPage(suite.browser, suite.site.baseUrl, { javaScriptEnabled: false });
    const form = page.locator(`#${SECTION_IDS.contact} form`);
    // The server added the form's token at the end of the page, tied to the form.
    await expect(form.evaluate((element: HTMLFormElement, field) => (element.elements.namedItem(field) as HTMLInputElement | null)?.value ?? '', FORM_TOKEN_FIELD)).resolves.toMatch(/^contact\./);
    await typeContact(page, WITHOUT_SCRIPTS, TYPING);
    await Promise.all([page.waitForURL(/\/forms\/contact\/sent$/), form.getByRole('button', { name: 'Надіслати повідомлення' }).click()]);
    await eventually('the webhook delivery', () => deliveredTo(WITHOUT_SCRIPTS.email).length, (count) => count === 1);
    expect(await leadOf(suite.site, WITHOUT_SCRIPTS.email)).toMatchObject({ status: 'new', spam_reasons: null });
    await page.context().close();
  });

  it('holds a headless bot that fills the form in under a second: «Спам» with its reasons, sent nowhere, until «Не спам» in the console', async () => {
    const page = await openPage(suite.browser, suite.site.baseUrl);
    const form = page.locator(`#${SECTION_IDS.contact} form`);
    await waitForHydration(form);
    await typeContact(page, FAST_BOT);
    await form.getByRole('button', { name: 'Надіслати повідомлення' }).click();
    // Answered as a person is: a bot learns nothing.
    await page.getByText(TOAST_MESSAGES.contactSuccess).waitFor();
    const held = await eventually('the stored lead', () => leadOf(suite.site, FAST_BOT.email), (lead) => lead !== undefined);
    expect(held).toMatchObject({ status: 'spam' });
    expect(JSON.parse(held!.spam_reasons ?? '[]')).toContain('too-fast');
    await page.context().close();

    const console = await openPage(suite.browser);
    await joinWithApp(console, invitationLink(suite.site, 'editor@khvylia.example', 'editor'));
    await console.getByRole('link', { name: /За тиждень затримано як спам: \d+/ }).click();
    await console.getByRole('link', { name: FAST_BOT.name }).click();
    await console.getByRole('heading', { name: 'Чому затримано' }).waitFor();
    await console.getByText('Надіслано за лічені секунди після відкриття сторінки').waitFor();
    expect(await queuedFor(suite.site, held!.id)).toBe(0);
    await console.getByRole('button', { name: 'Не спам' }).click();
    await console.getByText('Заявку повернуто у вхідні. Сповіщення надійдуть, якщо їх ще не надсилали.').waitFor();
    await eventually('the webhook delivery after «Не спам»', () => deliveredTo(FAST_BOT.email).length, (count) => count === 1);
    expect(await leadOf(suite.site, FAST_BOT.email)).toMatchObject({ status: 'new' });
    await console.context().close();
  });
  it('lets every person of a sample of the corpus through, each typing at a person’s pace in Chromium, scripts on and off', async () => {
    const sample = corpusPeopleSample();
    expect(sample.filter((entry) => entry.delivery.channel === 'no-script').length).toBeGreaterThanOrEqual(4);
    // All at once, as people do not wait for each other: each in a browser of their own.
    await Promise.all(
      sample.map(async (entry) => {
        const page = await openPage(suite.browser, suite.site.baseUrl, {
          javaScriptEnabled: entry.delivery.channel === 'script',
          userAgent: entry.delivery.userAgent,
          extraHTTPHeaders: { 'x-forwarded-for': entry.delivery.address },
        });
        await sendAsPerson(page, entry);
        await page.context().close();
      }),
    );
    const outcomes = await Promise.all(sample.map(async (entry) => [entry.id, await leadOf(suite.site, (entry.fields as ContactMessage).email)] as const));
    expect(outcomes.filter(([, lead]) => lead?.status !== 'new' || lead.spam_reasons !== null)).toEqual([]);
    await eventually(
      'every one of them at the webhook',
      () => sample.filter((entry) => deliveredTo((entry.fields as ContactMessage).email).length === 0).map((entry) => entry.id),
      (missing) => missing.length === 0,
      60_000,
    );
    // A hang guard only: typing takes as long as the longest message, longer on a busy machine.
  }, 300_000);
});
