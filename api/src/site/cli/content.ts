import fs from 'node:fs';
import path from 'node:path';
import { slugFromTitle } from '@agency/shared/slug';
import { SLUG_PATTERN } from '@agency/shared/contracts';
import { loadConfig, loadContentConfig, REPO_ROOT } from '../../platform/config';
import { exportArticles } from '../content/content-export';
import { changedAnything, syncContent, type SyncReport } from '../content/content-sync';
import { createDatabase } from '../../platform/db/connection';
import { migrateToLatest } from '../../platform/db/migrate';
import { ARG_MESSAGES, parseCliArgs, reportUsage, UsageError } from '../../platform/cli/parse-cli-args';
import { inertOutput } from '../../platform/cli/terminal-text';

/**
 * Publishing articles from the content folder (CONTENT_DIR, default content/blog):
 *   npm run content -- sync              make the blog in DATABASE_URL match the folder
 *   npm run content -- new "Назва"       start a new article (a draft) in the folder
 *   npm run content -- export <dir>      write every article (the console's too) as the folder's files
 * Exit codes: 0 done (or --help), 1 some article refused or skipped (the rest are done) or failed, 2 bad usage.
 */

export const USAGE = [
  'Використання: npm run content -- sync',
  '              npm run content -- new "Назва статті"',
  '              npm run content -- export <тека>   усі статті (і з консолі) файлами, як у теці статей',
  '              npm run content -- --help     ця довідка',
].join('\n');

type Env = Record<string, string | undefined>;

export interface CommandResult {
  output: string;
  exitCode: 0 | 1;
}

function kyivToday(now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Kyiv' }).format(now);
}

/** A path as the user reads it best: relative inside the working folder, absolute outside it. */
function relative(file: string): string {
  const shown = path.relative(process.cwd(), file);
  return shown === '' || shown.startsWith('..') || path.isAbsolute(shown) ? file : shown;
}

/** Writes `<date>-<slug>.md` with every field filled in and `draft: true`. */
export function newArticle(title: string, contentDir: string, now = new Date()): string {
  const cleanTitle = title.trim().replace(/\s+/g, ' ');
  if (cleanTitle === '') throw new UsageError('Вкажіть назву статті в лапках');
  const slug = slugFromTitle(cleanTitle);
  if (!new RegExp(SLUG_PATTERN).test(slug)) throw new UsageError(`З назви «${cleanTitle}» не виходить адреса: додайте літер`);
  const date = kyivToday(now);
  const file = path.join(contentDir, `${date}-${slug}.md`);
  if (fs.existsSync(file)) throw new UsageError(`Файл уже є: ${relative(file)}`);
  const text = [
    '---',
    `title: ${JSON.stringify(cleanTitle)}`,
    `slug: ${slug}`,
    'category: "Категорія"',
    'author: "Імʼя автора"',
    `date: ${date}`,
    'excerpt: "Два-три речення для картки статті й опису в пошуку."',
    `cover: images/${slug}.jpg`,
    '# Чернетка: сайт її не показує. Приберіть цей рядок і наступний, коли стаття готова.',
    'draft: true',
    '---',
    '',
    'Вступний абзац: про що стаття і кому вона допоможе.',
    '',
    '## Перший підзаголовок',
    '',
    'Текст розділу. **Жирний**, *курсив*, [посилання](https://khvylia.com.ua).',
    '',
    '- пункт списку',
    '- ще один пункт',
    '',
  ].join('\n');
  fs.mkdirSync(contentDir, { recursive: true });
  fs.writeFileSync(file, text, { flag: 'wx' });
  return file;
}

export function formatReport(report: SyncReport): string {
  const lines: string[] = [];
  const list = (label: string, slugs: string[]) => {
    if (slugs.length > 0) lines.push(`${label} (${slugs.length}): ${slugs.join(', ')}`);
  };
  list('Додано', report.added);
  list('Оновлено', report.updated);
  list('Знято з публікації', report.unpublished);
  list('Чернетки, не опубліковано', report.drafts);
  list('Ведуться в консолі, файли не застосовано', report.console);
  if (!changedAnything(report)) lines.push(`Без змін (${report.unchanged.length}): сайт уже показує статті такими, як у файлах.`);
  else if (report.unchanged.length > 0) lines.push(`Без змін: ${report.unchanged.length}`);
  for (const refused of report.refused) lines.push(`ВІДХИЛЕНО ${refused.file}: ${refused.message}`);
  return `${lines.join('\n')}\n`;
}

export async function run(argv: readonly string[], env: Env = process.env): Promise<CommandResult> {
  // No options besides --help. Positionals are counted per command below: `new` without quotes
  // around its title deserves a hint about them, not "extra arguments".
  const [command, ...rest] = parseCliArgs(argv, {}, ARG_MESSAGES.uk, Infinity).positionals;
  if (command === 'new') {
    if (rest.length !== 1) throw new UsageError('Вкажіть назву статті в лапках: npm run content -- new "Назва статті"');
    // Only the folder: writing a draft needs no database or other server settings.
    const { contentDir } = loadContentConfig(env);
    const file = newArticle(rest[0]!, contentDir);
    return {
      output: `Створено ${relative(file)}\nЦе чернетка: допишіть текст, покладіть обкладинку в ${relative(path.join(contentDir, 'images'))}, приберіть draft: true і запустіть npm run content -- sync.\n`,
      exitCode: 0,
    };
  }
  if (command === 'sync') {
    if (rest.length > 0) throw new UsageError(ARG_MESSAGES.uk.unexpected(rest));
    const config = loadConfig(env);
    const db = createDatabase(config.databaseUrl, { poolSize: 1 });
    try {
      await migrateToLatest(db);
      const report = await syncContent(db, config);
      return { output: formatReport(report), exitCode: report.refused.length > 0 ? 1 : 0 };
    } finally {
      await db.destroy();
    }
  }
  if (command === 'export') {
    if (rest.length !== 1) throw new UsageError('Вкажіть теку: npm run content -- export <тека>');
    const config = loadConfig(env);
    const db = createDatabase(config.databaseUrl, { poolSize: 1 });
    try {
      await migrateToLatest(db);
      const report = await exportArticles(db, { dir: path.resolve(rest[0]!), mediaDir: config.mediaDir });
      const lines = [`Записано статей: ${report.written.length} у ${relative(path.resolve(rest[0]!))}`];
      for (const skipped of report.skipped) lines.push(`ПРОПУЩЕНО ${skipped.slug}: ${skipped.message}`);
      return { output: `${lines.join('\n')}\n`, exitCode: report.skipped.length > 0 ? 1 : 0 };
    } finally {
      await db.destroy();
    }
  }
  throw new UsageError(command === undefined ? 'Вкажіть команду: sync, new або export' : `Невідома команда «${command}»: sync, new або export`);
}

if (require.main === module) {
  // npm runs scripts from the repo root; relative CONTENT_DIR/MEDIA_DIR are resolved against it.
  process.chdir(REPO_ROOT);
  run(process.argv.slice(2)).then(
    ({ output, exitCode }) => {
      process.stdout.write(inertOutput(output));
      process.exitCode = exitCode;
    },
    (error: unknown) => {
      const usageCode = reportUsage(error, USAGE);
      if (usageCode !== undefined) {
        process.exitCode = usageCode;
      } else {
        process.stderr.write(inertOutput(`Не вдалося: ${error instanceof Error ? error.message : String(error)}\n`));
        process.exitCode = 1;
      }
    },
  );
}
