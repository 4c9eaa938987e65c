import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AppConfig } from '../../../src/platform/config';
import { generateBackupKey } from '../../../src/platform/backup/backup-cipher';
import type { BackupAlertMessage } from '../../../src/platform/backup/backup-alerts';
import { startTestApp, type TestContext } from '../../helpers/app';
import { testDialect } from '../../helpers/database';
import { eventually } from '../../helpers/eventually';
import { startHttpReceiver, type HttpReceiver } from '../../helpers/lead-receivers';
import { BACKUP_SUITE_TIMEOUT_MS, BACKUP_WAIT_MS } from '../../helpers/backup-waits';

jest.setTimeout(BACKUP_SUITE_TIMEOUT_MS);

const TOKEN = 'backup-metrics-token-0123456789';

/** The value of one sample (`name{labels}`) in a scrape, or undefined when it is not there. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

let dir: string;
let receiver: HttpReceiver;
let ctx: TestContext | undefined;

async function start(store: string): Promise<TestContext> {
  const backup: AppConfig['backup'] = { store, s3: { region: 'us-east-1', forcePathStyle: false }, intervalMs: 3_600_000, verifyIntervalMs: 86_400_000, key: await generateBackupKey(), keyFile: path.join(dir, 'key.txt') };
  ctx = await startTestApp({ backup, metricsToken: TOKEN, opsWebhook: { url: receiver.url } });
  return ctx;
}

async function scrape(site: TestContext): Promise<string> {
  const response = await site.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.statusCode).toBe(200);
  return response.body;
}

const alerts = () => receiver.accepted().map((request) => JSON.parse(request.body) as BackupAlertMessage);

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-plugin-'));
  receiver = await startHttpReceiver();
});
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
  await receiver.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

(testDialect() === 'sqlite' ? describe : describe.skip)('backups on SQLite, as the site takes them', () => {
  test('the site backs up and proves its backup at start, and /metrics says how old both are', async () => {
    const site = await start(`file:${path.join(dir, 'backups')}`);
    const status = await eventually('the start-up backup and its drill', () => site.app.backups!.status(), (current) => current.newestVerified !== undefined, BACKUP_WAIT_MS);
    expect(status.count).toBe(1);
    // The status /metrics reads is kept for a few seconds: wait for one read after the drill.
    const text = await eventually('the drill in /metrics', () => scrape(site), (scraped) => (sample(scraped, 'agency_backup_verified_age_seconds') ?? -1) >= 0, BACKUP_WAIT_MS, 500);
    expect(sample(text, 'agency_backup_newest_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'agency_backup_failing{what="backup"}')).toBe(0);
    expect(alerts()).toEqual([]);
  });

  test('a backup that fails is said once to the ops webhook and shows in /metrics', async () => {
    // A store where a folder should be is a file: nothing can be written to it.
    const blocked = path.join(dir, 'blocked');
    fs.writeFileSync(blocked, '');
    const site = await start(`file:${blocked}`);
    const sent = await eventually('an alert', alerts, (received) => received.length >= 1, BACKUP_WAIT_MS);
    // The first minutes of a new site: a failure is said, a store with no backup yet is not.
    expect(sent.map((alert) => alert.alert)).toEqual(['backup_failed']);
    expect(sent.find((alert) => alert.alert === 'backup_failed')).toMatchObject({ type: 'backup_alert', site: 'https://khvylia.example', newestBackupAt: null, text: expect.stringMatching(/^A backup failed: /) });
    const text = await scrape(site);
    expect(sample(text, 'agency_backup_failing{what="backup"}')).toBe(1);
    expect(sample(text, 'agency_backup_newest_age_seconds')).toBe(-1);
  });
});
