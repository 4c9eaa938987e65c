import { createBackupAlerts, FIRST_BACKUP_GRACE_MS, type BackupAlertMessage } from '../../../src/platform/backup/backup-alerts';
import type { BackupStatus } from '../../../src/platform/backup/backup-status';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-30T12:00:00.000Z');

function status(overrides: Partial<BackupStatus>): BackupStatus {
  return { store: 'file:/b', kind: 'sqlite-snapshot', intervalMs: 5 * 60_000, verifyIntervalMs: 24 * HOUR, count: 1, totalBytes: 1, ...overrides };
}
const at = (msBefore: number) => new Date(NOW - msBefore).toISOString();
const fresh = { newest: { id: 'b', takenAt: at(60_000), bytes: 1, reason: 'interval' as const, durationMs: 1 }, newestVerified: { id: 'b', takenAt: at(60_000), verifiedAt: at(30_000) } };

test('each problem is said when it starts, not at every check while it lasts, and again when it comes back', async () => {
  const sent: BackupAlertMessage[] = [];
  const check = createBackupAlerts('https://khvylia.example', async (message) => void sent.push(message), NOW - 24 * HOUR);
  await check(status(fresh), NOW);
  expect(sent).toEqual([]);

  const stale = status({ ...fresh, newest: { ...fresh.newest, takenAt: at(11 * 60_000) } });
  await check(stale, NOW);
  await check(stale, NOW + 60_000);
  expect(sent.map((message) => message.alert)).toEqual(['backup_stale']);
  expect(sent[0]?.text).toMatch(/^No backup for over 10 minutes/);

  await check(status(fresh), NOW);
  await check(stale, NOW);
  expect(sent.map((message) => message.alert)).toEqual(['backup_stale', 'backup_stale']);
});

test('a drill not passed for twice its interval, and a failure, are problems of their own', async () => {
  const sent: BackupAlertMessage[] = [];
  const check = createBackupAlerts('https://khvylia.example', async (message) => void sent.push(message), NOW - 24 * HOUR);
  await check(status({ ...fresh, newestVerified: { id: 'a', takenAt: at(49 * HOUR), verifiedAt: at(48 * HOUR) }, failure: { at: at(0), what: 'verify', message: 'backup a is damaged' } }), NOW);
  expect(sent.map((message) => [message.alert, message.text])).toEqual([
    ['verify_stale', expect.stringMatching(/^No restore drill of a recent backup passed/)],
    ['verify_failed', 'A restore drill failed: backup a is damaged'],
  ]);
});

test('a new site with no backup yet is given a few minutes before that is a problem', async () => {
  const sent: BackupAlertMessage[] = [];
  const check = createBackupAlerts('https://khvylia.example', async (message) => void sent.push(message), NOW);
  const none = status({ count: 0, totalBytes: 0 });
  await check(none, NOW + FIRST_BACKUP_GRACE_MS - 1);
  expect(sent).toEqual([]);
  await check(none, NOW + FIRST_BACKUP_GRACE_MS);
  expect(sent.map((message) => message.alert)).toEqual(['backup_stale', 'verify_stale']);
});
