import path from 'node:path';
import type { Db } from '../../platform/db/connection';
import { COVERS_FOLDER, writeOnce } from './cover-images';

/**
 * Uploaded images kept in the database, by served name, so that any API process on any machine
 * can serve one: its own disk is only a copy, written the first time the image is asked for there.
 * Names carry a hash of the input, so one name always holds the same bytes.
 */

export async function storeMedia(db: Db, name: string, bytes: Buffer, memberId: number | null): Promise<void> {
  await db.kysely
    .insertInto('media_files')
    .values({ name, bytes, created_at: new Date().toISOString(), created_by: memberId })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
}

export async function readMedia(db: Db, name: string): Promise<Buffer | undefined> {
  const row = await db.kysely.selectFrom('media_files').select('bytes').where('name', '=', name).executeTakeFirst();
  return row && Buffer.from(row.bytes);
}

/** Keeps an uploaded image: in the database first (what every machine serves it from), then on this disk. */
export async function keepUpload(db: Db, mediaDir: string, image: { name: string; bytes: Buffer }, memberId: number): Promise<void> {
  await storeMedia(db, image.name, image.bytes, memberId);
  await writeOnce(path.join(mediaDir, COVERS_FOLDER, image.name), () => image.bytes);
}
