import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { REPO_CONTENT_DIR } from './app';

/** A content folder of the test's own, with the repo's SVG cover (and its JPEG twin) to point at. */
export function makeContentDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-content-'));
  fs.mkdirSync(path.join(dir, 'images'));
  for (const name of ['analytics.svg', 'analytics.jpg']) {
    fs.copyFileSync(path.join(REPO_CONTENT_DIR, 'images', name), path.join(dir, 'images', name));
  }
  return dir;
}

export interface ArticleFields {
  title?: string;
  slug?: string;
  category?: string;
  author?: string;
  date?: string;
  excerpt?: string;
  cover?: string;
  draft?: boolean | string;
  [extra: string]: unknown;
}

/** Writes `<dir>/<file>` with front matter from `fields` (undefined values left out) and `body`. */
export function writeArticle(dir: string, file: string, fields: ArticleFields, body = 'Текст статті.\n'): string {
  const defaults: ArticleFields = {
    title: 'Стаття',
    category: 'Тест',
    author: 'Олена Кравчук',
    date: '2026-02-03',
    excerpt: 'Коротко про статтю.',
    cover: 'images/analytics.svg',
  };
  const merged = { ...defaults, ...fields };
  const yaml = Object.entries(merged)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`)
    .join('\n');
  const full = path.join(dir, file);
  fs.writeFileSync(full, `---\n${yaml}\n---\n\n${body}`);
  return full;
}

/** A PNG photo stand-in of the given size. */
export async function writePng(file: string, width: number, height: number): Promise<void> {
  const png = await sharp({ create: { width, height, channels: 3, background: '#0e7c86' } }).png().toBuffer();
  fs.writeFileSync(file, png);
}

/** A JPEG photo cut short: its header (and size) reads, the picture does not decode. */
export async function writeCutJpeg(file: string): Promise<void> {
  const photo = await sharp({ create: { width: 1600, height: 1000, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 30 } } })
    .jpeg()
    .toBuffer();
  fs.writeFileSync(file, photo.subarray(0, Math.floor(photo.length / 3)));
}
