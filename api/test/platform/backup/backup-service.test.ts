import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { BACKUP_RETENTION_DAYS } from '@agency/shared';
import { generateBackupKey } from '../../../src/platform/backup/backup-cipher';
import { BackupService } from '../../../src/platform/backup/backup-service';
import { erasuresSince, journalErasure } from '../../../src/platform/backup/erasure-journal';
import { createDatabase } from '../../../src/platform/db/connection';
import { migrateToLatest } from '../../../src/platform/db/migrate';
import { testDialect } from '../../helpers/database';
import { BACKUP_SUITE_TIMEOUT_MS } from '../../helpers/backup-waits';

jest.setTimeout(BACKUP_SUITE_TIMEOUT_MS);

const DAY = 86_400_000;

(testDialect() === 'sqlite' ? describe : describe.skip)('retention of a SQLite site, on a clock the test moves', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-service-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('keeps exactly the promised backups and journal entries, and deletes the rest', async () => {
    const file = path.join(dir, 'site.sqlite');
    const db = createDatabase(`sqlite:${file}`);
    await migrateToLatest(db);
    await db.destroy();
    let clock = Date.parse('2026-11-30T12:00:00.000Z');
    const service = BackupService.open({
      config: { store: `file:${path.join(dir, 'backups')}`, s3: { region: 'us-east-1', forcePathStyle: false }, intervalMs: 300_000, verifyIntervalMs: DAY, key: await generateBackupKey(), keyFile: path.join(dir, 'k') },
      databaseUrl: `sqlite:${file}`,
      log: { info: () => undefined, warn: () => undefined } as unknown as FastifyBaseLogger,
      now: () => clock,
    }) as BackupService;
    const start = clock;
    const takenAt = async (msAgo: number) => {
      clock = start - msAgo;
      return (await service.backupNow('interval')).id;
    };
    const tooOld = await takenAt((BACKUP_RETENTION_DAYS + 1) * DAY);
    const olderSameDay = await takenAt(3 * DAY + 3_600_000);
    const newestOfDay = await takenAt(3 * DAY);
    const lastDay = [await takenAt(23 * 3_600_000), await takenAt(3_600_000)];
    clock = start - (BACKUP_RETENTION_DAYS + 1) * DAY;
    await journalErasure(service.catalog, { at: new Date(clock).toISOString(), hash: 'old' });
    clock = start - DAY;
    await journalErasure(service.catalog, { at: new Date(clock).toISOString(), hash: 'recent' });

    clock = start;
    expect((await service.prune()).sort()).toEqual([olderSameDay, tooOld].sort());
    expect((await service.catalog.list()).map((backup) => backup.id)).toEqual([newestOfDay, ...lastDay]);
    expect((await erasuresSince(service.catalog, '')).map((entry) => entry.hash)).toEqual(['recent']);
  });
});
