import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { backupRecipient, generateBackupKey, sealFile, unsealToFile } from '../../../src/platform/backup/backup-cipher';
import { BACKUP_SUITE_TIMEOUT_MS } from '../../helpers/backup-waits';

jest.setTimeout(BACKUP_SUITE_TIMEOUT_MS);

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-cipher-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function sealedSample(text: string) {
  const identity = await generateBackupKey();
  const plain = path.join(dir, 'plain');
  fs.writeFileSync(plain, text);
  const sealed = path.join(dir, 'sealed.age');
  const result = await sealFile(plain, sealed, await backupRecipient(identity));
  return { identity, sealed, result };
}

test('a sealed file holds none of its text and opens with its key to the same bytes', async () => {
  // Over 1 MiB: several gzip members, read back as one.
  const text = 'olena@example.com '.repeat(200_000);
  const { identity, sealed, result } = await sealedSample(text);
  const bytes = fs.readFileSync(sealed);
  expect(bytes.includes(Buffer.from('olena@example.com'))).toBe(false);
  expect(result.bytes).toBe(bytes.length);
  expect(result.plainBytes).toBe(Buffer.byteLength(text));
  const opened = path.join(dir, 'opened');
  await unsealToFile(bytes, opened, identity);
  expect(fs.readFileSync(opened, 'utf8')).toBe(text);
});

test('a changed byte, a truncated file or another key is refused', async () => {
  const { identity, sealed } = await sealedSample('lead '.repeat(50_000));
  const bytes = fs.readFileSync(sealed);
  const flipped = Buffer.from(bytes);
  const middle = Math.floor(flipped.length / 2);
  flipped[middle] = (flipped[middle] ?? 0) ^ 1;
  await expect(unsealToFile(flipped, path.join(dir, 'a'), identity)).rejects.toThrow();
  await expect(unsealToFile(bytes.subarray(0, bytes.length - 100), path.join(dir, 'b'), identity)).rejects.toThrow();
  await expect(unsealToFile(bytes, path.join(dir, 'c'), await generateBackupKey())).rejects.toThrow();
});
