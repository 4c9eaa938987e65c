import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { ArticleError } from './front-matter';

/** Every cover is shown at this size (the blog reserves its space before the image arrives). */
export const COVER_SIZE = { width: 1200, height: 630 } as const;
/** Smaller pictures would look blurred when stretched to the cover size. */
export const MIN_SIZE = { width: 600, height: 315 } as const;
/** Where prepared covers are served; MEDIA_DIR/posts on disk. */
export const COVERS_URL_PREFIX = '/media/posts/';
export const COVERS_FOLDER = 'posts';
/** Part of every output name's hash: bump it when the processing below changes. */
export const PIPELINE = 'cover-v1';

const RASTER = new Set(['.jpg', '.jpeg', '.png', '.webp']);

/** What an SVG cover must not contain: it is served from the site's own origin. */
const UNSAFE_SVG = /<script|<foreignObject|\son[a-z]+\s*=|javascript:/i;

export function contentHash(...parts: (string | Buffer)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex').slice(0, 10);
}

/** Writes a file under its final name in one step, so a reader never sees half of it. */
export function writeOnce(file: string, produce: () => Promise<Buffer> | Buffer): Promise<void> | void {
  if (fs.existsSync(file)) return;
  return Promise.resolve(produce()).then((bytes) => {
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, bytes);
    fs.renameSync(temporary, file);
  });
}

export function toCoverJpeg(input: Sharp): Promise<Buffer> {
  return input
    .rotate()
    .resize(COVER_SIZE.width, COVER_SIZE.height, { fit: 'cover', position: 'attention' })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 82, mozjpeg: true })
    .toBuffer();
}

async function checkRasterSize(bytes: Buffer, cover: string): Promise<void> {
  let size: { width?: number; height?: number };
  try {
    size = await sharp(bytes).metadata();
  } catch {
    throw new ArticleError('cover', `«${cover}» не читається як зображення`);
  }
  const { width = 0, height = 0 } = size;
  if (width < MIN_SIZE.width || height < MIN_SIZE.height) {
    throw new ArticleError(
      'cover',
      `«${cover}» замале (${width}×${height}): потрібно щонайменше ${MIN_SIZE.width}×${MIN_SIZE.height}, краще ${COVER_SIZE.width}×${COVER_SIZE.height}`,
    );
  }
}

/**
 * Copies an article's cover into the served media folder at the cover size and returns its URL.
 * Raster pictures become a 1200×630 JPEG (cropped to the cover's shape, keeping what draws the
 * eye). An SVG is served as drawn, with a JPEG twin beside it for link previews (messengers do
 * not show SVG): the .jpg next to the SVG in the content folder if there is one, else rendered.
 * File names carry a hash of the input, so a changed cover gets a new URL (cached for a year) and
 * an unchanged one is not processed again.
 */
export async function prepareCover(articleFile: string, cover: string, contentDir: string, mediaDir: string, slug: string): Promise<string> {
  const source = path.resolve(path.dirname(articleFile), cover);
  const relative = path.relative(path.resolve(contentDir), source);
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new ArticleError('cover', `«${cover}» лежить поза текою статей`);
  }
  if (!fs.existsSync(source) || !fs.statSync(source).isFile()) throw new ArticleError('cover', `файл «${cover}» не знайдено`);
  const extension = path.extname(source).toLowerCase();
  const folder = path.join(mediaDir, COVERS_FOLDER);
  fs.mkdirSync(folder, { recursive: true });
  const bytes = fs.readFileSync(source);

  if (extension === '.svg') {
    const svg = bytes.toString('utf8');
    if (!/^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(svg)) throw new ArticleError('cover', `«${cover}» не схоже на SVG`);
    if (UNSAFE_SVG.test(svg)) throw new ArticleError('cover', `«${cover}» містить скрипт або обробник подій: такий SVG не публікується`);
    const twinPath = [source.replace(/\.svg$/i, '.jpg'), source.replace(/\.svg$/i, '.jpeg')].find((file) => fs.existsSync(file));
    const twin = twinPath ? fs.readFileSync(twinPath) : undefined;
    if (twin) await checkRasterSize(twin, path.basename(twinPath!));
    const name = `${slug}.${contentHash(PIPELINE, bytes, twin ?? '')}`;
    await writeOnce(path.join(folder, `${name}.svg`), () => bytes);
    await writeOnce(path.join(folder, `${name}.jpg`), () =>
      toCoverJpeg(twin ? sharp(twin) : sharp(bytes, { density: 144 })).catch(() => {
        throw new ArticleError('cover', `«${cover}» не вдалося намалювати`);
      }),
    );
    return `${COVERS_URL_PREFIX}${name}.svg`;
  }
  if (RASTER.has(extension)) {
    await checkRasterSize(bytes, cover);
    const name = `${slug}.${contentHash(PIPELINE, bytes)}`;
    await writeOnce(path.join(folder, `${name}.jpg`), () =>
      // A file cut short can have a readable header and still fail to decode.
      toCoverJpeg(sharp(bytes)).catch(() => {
        throw new ArticleError('cover', `«${cover}» пошкоджене: не вдалося його обробити`);
      }),
    );
    return `${COVERS_URL_PREFIX}${name}.jpg`;
  }
  throw new ArticleError('cover', `«${cover}»: підтримуються SVG, JPEG, PNG і WebP`);
}
