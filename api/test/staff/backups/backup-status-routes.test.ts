import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ApiErrorBody, BackupOverview } from '@agency/shared';
import { generateBackupKey } from '../../../src/platform/backup/backup-cipher';
import type { BackupStatus } from '../../../src/platform/backup/backup-status';
import { backupOverview } from '../../../src/staff/backups/backup-status-routes';
import { startTestApp, type TestContext } from '../../helpers/app';
import { testDialect } from '../../helpers/database';
import { eventually } from '../../helpers/eventually';
import { joinWithApp, type JoinedMember } from '../../helpers/staff';
import { BACKUP_SUITE_TIMEOUT_MS, BACKUP_WAIT_MS } from '../../helpers/backup-waits';

jest.setTimeout(BACKUP_SUITE_TIMEOUT_MS);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('GET /api/staff/backups with backups on', () => {
  let dir: string;
  let ctx: TestContext;
  let admin: JoinedMember;
  let editor: JoinedMember;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-status-routes-'));
    const backup = { store: `file:${path.join(dir, 'backups')}`, s3: { region: 'us-east-1', forcePathStyle: false }, intervalMs: HOUR, verifyIntervalMs: DAY, key: await generateBackupKey(), keyFile: path.join(dir, 'k') };
    ctx = await startTestApp({ backup });
    admin = await joinWithApp(ctx, 'admin@khvylia.example', 'admin');
    editor = await joinWithApp(ctx, 'editor@khvylia.example', 'editor');
  });

  afterAll(async () => {
    await ctx.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const overview = async (member: JoinedMember) => {
    const response = await member.browser.request('GET', '/api/staff/backups');
    expect(response.statusCode).toBe(200);
    return response.json<BackupOverview>();
  };

  (testDialect() === 'sqlite' ? it : it.skip)('shows an admin the newest backup, the newest a drill proved, and what the store keeps', async () => {
    // The site's first scheduled run, at start: a snapshot and its restore drill.
    const first = await eventually('the first scheduled backup and drill', () => overview(admin), (body) => body.status?.newestVerified !== undefined, BACKUP_WAIT_MS);
    const manual = await ctx.app.backups!.backupNow('manual');
    const body = await overview(admin);
    expect(body).toEqual({
      enabled: true,
      status: {
        store: `file:${path.join(dir, 'backups')}`,
        kind: 'sqlite-snapshot',
        intervalMs: HOUR,
        verifyIntervalMs: DAY,
        count: 2,
        totalBytes: first.status!.newest!.bytes + manual.bytes,
        newest: { id: manual.id, takenAt: manual.takenAt, ageSeconds: expect.any(Number), bytes: manual.bytes, reason: 'manual', durationMs: manual.durationMs },
        newestVerified: { id: first.status!.newest!.id, takenAt: first.status!.newest!.takenAt, ageSeconds: expect.any(Number), verifiedAt: expect.any(String) },
      },
      alerts: [],
    });
    expect(first.status!.newest!.reason).toBe('interval');
    expect(body.status!.newest!.ageSeconds).toBeLessThan(60);
    expect(manual.bytes).toBeGreaterThan(0);
  });

  (testDialect() === 'postgres' ? it : it.skip)('shows an admin a PostgreSQL site’s store, where the backup agent has taken nothing yet, as stale', async () => {
    await expect(ctx.app.backups!.backupNow('manual')).rejects.toThrow(/backup agent/);
    expect(await overview(admin)).toEqual({
      enabled: true,
      status: { store: `file:${path.join(dir, 'backups')}`, kind: 'postgres-base', intervalMs: HOUR, verifyIntervalMs: DAY, count: 0, totalBytes: 0 },
      alerts: ['backup_stale', 'verify_stale'],
    });
  });

  it('refuses anyone but an admin', async () => {
    const response = await editor.browser.request('GET', '/api/staff/backups');
    expect(response.statusCode).toBe(403);
    expect(response.json<ApiErrorBody>().error.code).toBe('FORBIDDEN');
    expect((await ctx.request('GET', '/api/staff/backups')).statusCode).toBe(401);
  });

  it('says so when the store cannot be read, rather than showing no backups', async () => {
    jest.spyOn(ctx.app.backups!, 'status').mockRejectedValueOnce(new Error('connect ECONNREFUSED'));
    const response = await admin.browser.request('GET', '/api/staff/backups');
    expect(response.statusCode).toBe(503);
    expect(response.json<ApiErrorBody>().error).toMatchObject({ code: 'BACKUP_STORE_UNAVAILABLE', message: expect.stringMatching(/^Сховище резервних копій не відповідає/) });
  });
});

describe('GET /api/staff/backups with BACKUP_STORE=off', () => {
  let ctx: TestContext;
  let admin: JoinedMember;

  beforeAll(async () => {
    ctx = await startTestApp();
    admin = await joinWithApp(ctx, 'admin@khvylia.example', 'admin');
  });

  afterAll(async () => {
    await ctx.close();
  });

  it('answers that backups are off', async () => {
    const response = await admin.browser.request('GET', '/api/staff/backups');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ enabled: false, alerts: [] });
  });
});

describe('backupOverview', () => {
  const status: BackupStatus = {
    store: 's3://agency-backups/site',
    kind: 'sqlite-snapshot',
    intervalMs: 5 * 60_000,
    verifyIntervalMs: DAY,
    count: 3,
    totalBytes: 3_000,
    newest: { id: 'n', takenAt: '2026-12-01T10:00:00.000Z', bytes: 1_000, reason: 'shutdown', durationMs: 40 },
    newestVerified: { id: 'v', takenAt: '2026-11-29T09:00:00.000Z', verifiedAt: '2026-11-29T09:01:00.000Z' },
    failure: { at: '2026-12-01T10:20:00.000Z', what: 'backup', message: 'disk full' },
  };

  it('counts ages in whole seconds by the server’s clock, and the alerts at that moment', () => {
    const body = backupOverview(status, Date.parse('2026-12-01T10:30:00.999Z'));
    expect(body.status!.newest!.ageSeconds).toBe(30 * 60);
    expect(body.status!.newestVerified!.ageSeconds).toBe(2 * 86_400 + 3_600 * 1 + 30 * 60);
    expect(body.status!.failure).toEqual(status.failure);
    expect(body.alerts).toEqual(['backup_stale', 'verify_stale', 'backup_failed']);
  });

  it('never shows a negative age when the backup’s clock ran ahead', () => {
    expect(backupOverview(status, Date.parse('2026-12-01T09:59:00.000Z')).status!.newest!.ageSeconds).toBe(0);
  });
});
