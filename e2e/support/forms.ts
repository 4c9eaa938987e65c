import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Locator, Page } from 'playwright-core';
import { FORM_TOKEN_FIELD, JOB_APPLICATION_FORM_ID, SECTION_IDS, TOAST_MESSAGES, VACANCIES, type Vacancy } from '@agency/shared';
import { apiProcessCommand } from '../../api/test/helpers/api-process-command';
import { waitForHydration } from './browser';

const run = promisify(execFile);

/** What the submissions command (`npm run submissions -- <args>`) prints for the site's database. */
async function submissionsCommand(site: { databaseUrl: string }, ...args: string[]): Promise<string> {
  const { command, args: commandArgs, cwd } = apiProcessCommand('src/site/cli/submissions.ts', args);
  const { stdout } = await run(command, commandArgs, { cwd, env: { ...process.env, DATABASE_URL: site.databaseUrl } });
  return stdout;
}

/** What staff see: the stored submissions, read through the API's own command. */
export async function storedSubmissions(site: { databaseUrl: string }, kind: 'contact' | 'applications'): Promise<Record<string, unknown>[]> {
  return JSON.parse(await submissionsCommand(site, kind, '--format', 'json')) as Record<string, unknown>[];
}

/**
 * How long after its form token was issued the suites send a form: the site holds as spam a form
 * sent faster than a person fills one (under 3 s from the token). A person's pace is the
 * spam-defence suite's to show; the other suites fill forms at machine speed, then wait this.
 */
export const PERSON_SENDS_AFTER_MS = 3_500;

/**
 * When the token a form sends was issued (ms since the epoch, the machine's clock): the one the
 * server put into the page, else the one the form's script fetched last, no later than its answer
 * came. Not from the navigation: a page the server is slow to send (a loaded machine) carries a
 * token issued well after it.
 */
function tokenIssuedAt(form: Locator): Promise<number> {
  return form.evaluate((element, field) => {
    const pageToken = (element as HTMLFormElement).elements.namedItem(field);
    const issued = pageToken instanceof HTMLInputElement ? parseInt(pageToken.value.split('.')[1] ?? '', 36) : Number.NaN;
    if (Number.isFinite(issued)) return issued;
    const fetched = performance.getEntriesByType('resource').filter((entry) => /\/forms\/[^/]+\/challenge$/.test(entry.name)).at(-1);
    return fetched ? performance.timeOrigin + (fetched as PerformanceResourceTiming).responseEnd : Date.now();
  }, FORM_TOKEN_FIELD);
}

/** Clicks submit (once its token is as old as a person takes), then moves the pointer away: a hovered toast pauses its timer. */
export async function submit(form: Locator, name: string): Promise<void> {
  const sendAt = (await tokenIssuedAt(form)) + PERSON_SENDS_AFTER_MS;
  await form.page().waitForFunction((at) => Date.now() > at, sendAt);
  await form.getByRole('button', { name }).click();
  await form.page().mouse.move(1, 1);
}

/**
 * Fills the contact form as a visitor does once its script runs (the service from the searchable
 * dropdown): the server's form is on the page before that, a plain HTML form until then.
 */
export async function fillContact(form: Locator, email: string): Promise<void> {
  await waitForHydration(form);
  await form.getByLabel(/^Імʼя/).fill('Андрій Шевчук');
  await form.getByLabel(/^Електронна пошта/).fill(email);
  await form.getByLabel(/^Телефон/).fill('+380 50 765 43 21');
  await form.getByLabel(/^Компанія/).fill('Кава на Ринку');
  await form.getByLabel(/^Послуга/).click();
  await form.page().getByRole('option', { name: 'Лідогенерація' }).click();
  await form.getByLabel(/^Повідомлення/).fill('Потрібне ведення Instagram для двох кавʼярень.');
}

/** Fills a job application's fields (the position chosen already) as Марта Гнатюк from Lviv. */
export async function fillApplication(form: Locator, email: string): Promise<void> {
  await waitForHydration(form);
  await form.getByLabel(/^Імʼя та прізвище/).fill('Марта Гнатюк');
  await form.getByLabel(/^Електронна пошта/).fill(email);
  await form.getByLabel(/^Телефон/).fill('+380 67 765 43 21');
  await form.getByLabel(/^Місто/).fill('Львів');
}

/**
 * On a home page that is open: sends a contact message from `contactEmail`, then applies for the
 * first vacancy (reached by its «Відгукнутися» link) from `applicationEmail`, each until its
 * success toast shows. Returns the vacancy applied for.
 */
export async function sendContactAndApplication(page: Page, contactEmail: string, applicationEmail: string): Promise<Vacancy> {
  const contact = page.locator(`#${SECTION_IDS.contact} form`);
  await fillContact(contact, contactEmail);
  await submit(contact, 'Надіслати повідомлення');
  await page.getByText(TOAST_MESSAGES.contactSuccess).waitFor();

  const vacancy = VACANCIES[0]!;
  await page.getByRole('link', { name: `Відгукнутися: ${vacancy.title}` }).click();
  const application = page.locator(`#${JOB_APPLICATION_FORM_ID}`);
  await application.getByText(vacancy.title, { exact: true }).waitFor();
  await fillApplication(application, applicationEmail);
  await submit(application, 'Надіслати заявку');
  await page.getByText(TOAST_MESSAGES.applicationSuccess).waitFor();
  return vacancy;
}

/** What the agency reads of conversion by source: the API's own `report` command, as JSON. */
export async function conversionReport(site: { databaseUrl: string }): Promise<{ since: string; rows: Record<string, unknown>[] }> {
  return JSON.parse(await submissionsCommand(site, 'report', '--format', 'json')) as { since: string; rows: Record<string, unknown>[] };
}

/** The staff export of one kind as CSV rows (header first), through the API's own command. */
export async function exportedCsv(site: { databaseUrl: string }, kind: 'contact' | 'applications'): Promise<string> {
  return submissionsCommand(site, kind, '--format', 'csv');
}
