import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Locator } from 'playwright-core';
import { ROOT } from './site';

const run = promisify(execFile);

/** What staff see: the stored submissions, read through the API's own command. */
export async function storedSubmissions(site: { databaseUrl: string }, kind: 'contact' | 'applications'): Promise<Record<string, unknown>[]> {
  const { stdout } = await run('npm', ['run', 'submissions', '--silent', '--', kind, '--format', 'json'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: site.databaseUrl },
  });
  return JSON.parse(stdout) as Record<string, unknown>[];
}

/** Clicks submit, then moves the pointer away: a hovered toast pauses its timer. */
export async function submit(form: Locator, name: string): Promise<void> {
  await form.getByRole('button', { name }).click();
  await form.page().mouse.move(1, 1);
}

export async function fillContact(form: Locator, email: string): Promise<void> {
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
  await form.getByLabel(/^Імʼя та прізвище/).fill('Марта Гнатюк');
  await form.getByLabel(/^Електронна пошта/).fill(email);
  await form.getByLabel(/^Телефон/).fill('+380 67 765 43 21');
  await form.getByLabel(/^Місто/).fill('Львів');
}

/** What the agency reads of conversion by source: the API's own `report` command, as JSON. */
export async function conversionReport(site: { databaseUrl: string }): Promise<{ since: string; rows: Record<string, unknown>[] }> {
  const { stdout } = await run('npm', ['run', 'submissions', '--silent', '--', 'report', '--format', 'json'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: site.databaseUrl },
  });
  return JSON.parse(stdout) as { since: string; rows: Record<string, unknown>[] };
}

/** The staff export of one kind as CSV rows (header first), through the API's own command. */
export async function exportedCsv(site: { databaseUrl: string }, kind: 'contact' | 'applications'): Promise<string> {
  const { stdout } = await run('npm', ['run', 'submissions', '--silent', '--', kind, '--format', 'csv'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: site.databaseUrl },
  });
  return stdout;
}
