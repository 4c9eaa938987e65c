import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { backupRecipient, generateBackupKey, unsealToFile } from '../../../../src/platform/backup/backup-cipher';
import { BackupCatalog } from '../../../../src/platform/backup/backup-catalog';
import { shipWal, walArchiveCommand, walArchiveSettings, WalConflictError } from '../../../../src/platform/backup/postgres/postgres-wal-archive';
import { FileObjectStore } from '../../../../src/platform/object-store/file-object-store';
import { describeOnPostgres } from './archiving-cluster';
import { BACKUP_SUITE_TIMEOUT_MS } from '../../../helpers/backup-waits';

jest.setTimeout(BACKUP_SUITE_TIMEOUT_MS);

// The real server runs this command in the other postgres tests; here its quoting and the
// shipper's bookkeeping are checked on their own.
describeOnPostgres('WAL archiving: archive_command and shipWal', () => {
  let dir: string;
  let spool: string;
  let catalog: BackupCatalog;
  let identity: string;
  let recipient: string;

  beforeAll(async () => {
    identity = await generateBackupKey();
    recipient = await backupRecipient(identity);
  });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-wal-archive-'));
    spool = path.join(dir, "spool with 'quotes' and 100%");
    fs.mkdirSync(spool);
    catalog = new BackupCatalog(new FileObjectStore(path.join(dir, 'store')));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Runs archive_command as PostgreSQL would: %p, %f and %% replaced, then /bin/sh. */
  function archive(walPath: string): void {
    const command = walArchiveCommand(spool).replace(/%[pf%]/g, (escape) => (escape === '%p' ? walPath : escape === '%f' ? path.basename(walPath) : '%'));
    execFileSync('/bin/sh', ['-c', command], { stdio: 'pipe' });
  }

  test('archive_command copies a WAL file into the spool once, and refuses to replace one waiting there', () => {
    const wal = path.join(dir, '000000010000000000000001');
    fs.writeFileSync(wal, 'segment one');
    archive(wal);
    expect(fs.readdirSync(spool)).toEqual(['000000010000000000000001']);
    expect(fs.readFileSync(path.join(spool, '000000010000000000000001'), 'utf8')).toBe('segment one');
    fs.writeFileSync(wal, 'changed');
    expect(() => archive(wal)).toThrow();
    expect(fs.readFileSync(path.join(spool, '000000010000000000000001'), 'utf8')).toBe('segment one');
    expect(walArchiveSettings(spool)).toMatchObject({ wal_level: 'replica', archive_mode: 'on', archive_timeout: '30s' });
  });

  test('shipWal stores every WAL file in name order, sealed, and empties the spool of them only', async () => {
    const files = {
      '000000010000000000000003': 'three',
      '000000010000000000000002': 'two',
      '000000010000000000000002.00000028.backup': 'START WAL LOCATION: 0/2000028',
      '00000002.history': '1\t0/3000000\tbefore 2000-01-01',
      '000000010000000000000004.copying': 'half copied',
      'notes.txt': 'not WAL',
    };
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(spool, name), text);
    const result = await shipWal({ catalog, recipient, spoolDir: spool });
    expect(result).toEqual({
      shipped: ['000000010000000000000002', '000000010000000000000002.00000028.backup', '000000010000000000000003', '00000002.history'],
      alreadyStored: [],
    });
    expect(fs.readdirSync(spool).sort()).toEqual(['000000010000000000000004.copying', 'notes.txt']);
    for (const name of result.shipped) {
      const opened = path.join(dir, `${name}.opened`);
      await unsealToFile((await catalog.store.get(`wal/${name}.age`)) as Buffer, opened, identity);
      expect(fs.readFileSync(opened, 'utf8')).toBe(files[name as keyof typeof files]);
    }
    expect(await shipWal({ catalog, recipient, spoolDir: spool })).toEqual({ shipped: [], alreadyStored: [] });
  });

  test('a file stored already (a crash between store and delete) is compared, then deleted from the spool', async () => {
    fs.writeFileSync(path.join(spool, '000000010000000000000005'), 'five');
    await shipWal({ catalog, recipient, spoolDir: spool });
    // The server archives it again, as after a crash before it recorded the first success.
    fs.writeFileSync(path.join(spool, '000000010000000000000005'), 'five');
    expect(await shipWal({ catalog, recipient, spoolDir: spool })).toEqual({ shipped: [], alreadyStored: ['000000010000000000000005'] });
    fs.writeFileSync(path.join(spool, '000000010000000000000005'), 'five');
    expect(await shipWal({ catalog, recipient, spoolDir: spool, identity })).toEqual({ shipped: [], alreadyStored: ['000000010000000000000005'] });
    expect(fs.readdirSync(spool)).toEqual([]);
  });

  test('a file stored already with other content is kept in the spool and reported', async () => {
    fs.writeFileSync(path.join(spool, '000000010000000000000006'), 'six');
    await shipWal({ catalog, recipient, spoolDir: spool });
    fs.writeFileSync(path.join(spool, '000000010000000000000006'), 'another server');
    await expect(shipWal({ catalog, recipient, spoolDir: spool })).rejects.toThrow(WalConflictError);
    fs.writeFileSync(path.join(spool, '000000010000000000000006'), 'sax');
    // The same size sealed: only the content comparison (with the identity) tells them apart.
    await expect(shipWal({ catalog, recipient, spoolDir: spool, identity })).rejects.toThrow(WalConflictError);
    expect(fs.readdirSync(spool)).toEqual(['000000010000000000000006']);
  });
});

test('a spool the server has not made yet holds nothing to ship', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wal-spool-missing-'));
  try {
    const catalog = new BackupCatalog(new FileObjectStore(path.join(dir, 'store')));
    const recipient = await backupRecipient(await generateBackupKey());
    expect(await shipWal({ catalog, recipient, spoolDir: path.join(dir, 'wal-spool') })).toEqual({ shipped: [], alreadyStored: [] });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
