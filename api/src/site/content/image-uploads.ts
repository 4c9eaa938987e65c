import { IMAGE_UPLOAD } from '@agency/shared';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { ApiError } from '../../platform/http/api-error';
import { inlineImageName } from './inline-image-names';
import { COVER_SIZE, COVERS_URL_PREFIX, contentHash, MIN_SIZE, PIPELINE, toCoverJpeg } from './cover-images';

/**
 * An image uploaded in the console, through the pipeline file covers take: a cover becomes the
 * 1200×630 JPEG every cover is; an inline picture a JPEG at most as wide as a cover, its own
 * shape kept, its size in its name (so the article's HTML can reserve its space). What is
 * uploaded is judged by its content, never its name or declared type: only a JPEG, PNG or WebP
 * that decodes is accepted. Metadata (EXIF: camera, place) is dropped with the re-encoding.
 */

export type ImageUse = 'cover' | 'inline';

export class ImageRefused extends Error {}

/**
 * An upload is the request's body as sent (any image type, or bytes), up to the upload limit, in
 * the plugin `app` is: what it really is is judged from its content.
 */
export function acceptImageBodies(app: FastifyInstance): void {
  for (const type of [/^image\//, 'application/octet-stream']) {
    app.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: IMAGE_UPLOAD.maxBytes }, (_request, body, done) => done(null, body));
  }
}

/** Runs an upload's preparation; a refusal is the request's clear 400, nothing stored. */
export async function preparedOrRefused<T>(body: unknown, emptyMessage: string, prepare: (bytes: Buffer) => Promise<T>): Promise<T> {
  if (!Buffer.isBuffer(body) || body.length === 0) throw new ApiError(400, 'IMAGE_REFUSED', emptyMessage);
  try {
    return await prepare(body);
  } catch (error) {
    if (error instanceof ImageRefused) throw new ApiError(400, 'IMAGE_REFUSED', error.message);
    throw error;
  }
}

export const UPLOAD_MESSAGES = {
  notAnImage: 'Файл не є зображенням JPEG, PNG чи WebP',
  format: (format: string) => `Формат ${format.toUpperCase()} не підтримується: завантажте JPEG, PNG чи WebP`,
  broken: 'Зображення пошкоджене: його не вдалося обробити',
  coverTooSmall: (width: number, height: number) =>
    `Обкладинка замала (${width}×${height}): потрібно щонайменше ${MIN_SIZE.width}×${MIN_SIZE.height}, краще ${COVER_SIZE.width}×${COVER_SIZE.height}`,
} as const;

const ACCEPTED = new Set<string>(IMAGE_UPLOAD.formats);

export interface PreparedImage {
  /** The served name, under COVERS_URL_PREFIX. */
  name: string;
  url: string;
  bytes: Buffer;
  width: number;
  height: number;
}

export async function prepareUploadedImage(input: Buffer, use: ImageUse, slug: string): Promise<PreparedImage> {
  let format: string | undefined;
  let width = 0;
  let height = 0;
  try {
    ({ format, width = 0, height = 0 } = await sharp(input).metadata());
  } catch {
    throw new ImageRefused(UPLOAD_MESSAGES.notAnImage);
  }
  if (!format || !ACCEPTED.has(format)) throw new ImageRefused(format ? UPLOAD_MESSAGES.format(format) : UPLOAD_MESSAGES.notAnImage);
  if (use === 'cover' && (width < MIN_SIZE.width || height < MIN_SIZE.height)) throw new ImageRefused(UPLOAD_MESSAGES.coverTooSmall(width, height));
  const hash = contentHash(PIPELINE, use, input);
  try {
    if (use === 'cover') {
      const bytes = await toCoverJpeg(sharp(input));
      const name = `${slug}.${hash}.jpg`;
      return { name, url: `${COVERS_URL_PREFIX}${name}`, bytes, ...COVER_SIZE };
    }
    const { data, info } = await sharp(input)
      .rotate()
      .resize({ width: COVER_SIZE.width, withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    const name = inlineImageName(slug, hash, info.width, info.height);
    return { name, url: `${COVERS_URL_PREFIX}${name}`, bytes: data, width: info.width, height: info.height };
  } catch {
    // A file cut short can have a readable header and still fail to decode.
    throw new ImageRefused(UPLOAD_MESSAGES.broken);
  }
}
