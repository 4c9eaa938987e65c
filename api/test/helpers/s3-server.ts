import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import { loadDeliveryConfig, type S3Config } from '../../src/platform/config';
import { s3Client } from '../../src/platform/object-store/open-object-store';

export interface S3Server {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  /** A bucket created empty on start. */
  bucket: string;
  /** S3_ENDPOINT, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and S3_FORCE_PATH_STYLE for it. */
  env: Record<string, string>;
  /** The same settings as the API's configuration reads them. */
  s3: S3Config;
  /** Stops the server (SIGTERM, SIGKILL if it lingers) and deletes its data. */
  stop(): Promise<void>;
}

/** s3rver accepts these credentials only (and checks the requests' signatures with them). */
const S3RVER_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

const LISTENING = /S3rver listening on [^:\s]+:(\d+)/;

/**
 * Starts s3rver (a fake S3 speaking the real HTTP API) on a free port of 127.0.0.1 with its data
 * in a temporary folder, and creates a bucket through the AWS SDK. It runs as a child process:
 * its old Koa stack stays out of the test's module registry, and e2e runs can share it.
 */
export async function startS3Server(): Promise<S3Server> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  // s3rver encrypts ListObjectsV2 continuation tokens with DES, which OpenSSL 3 keeps in its
  // legacy provider: without it, listing past the first page fails.
  const args = ['--openssl-legacy-provider', require.resolve('s3rver/bin/s3rver.js'), '--directory', dataDir, '--address', '127.0.0.1', '--port', '0', '--silent'];
  const child = spawn(process.execPath, args, { cwd: dataDir, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let running = true;
  const exited = new Promise<void>((resolve) => {
    child.on('error', () => resolve());
    child.on('exit', () => resolve());
  });
  void exited.then(() => (running = false));
  const stop = async () => {
    if (running) {
      const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(kill);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  const port = await new Promise<number>((resolve, reject) => {
    const timeout = setTimeout(() => reject(new Error(`s3rver did not start within 10 s:\n${output}`)), 10_000);
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      const match = LISTENING.exec(output);
      if (match) {
        clearTimeout(timeout);
        resolve(Number(match[1]));
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    void exited.then(() => {
      clearTimeout(timeout);
      reject(new Error(`s3rver exited before it was listening:\n${output}`));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });

  const endpoint = `http://127.0.0.1:${port}`;
  const bucket = `test-${randomBytes(4).toString('hex')}`;
  const env = { S3_ENDPOINT: endpoint, AWS_REGION: 'us-east-1', ...S3RVER_CREDENTIALS, S3_FORCE_PATH_STYLE: 'true' };
  const { s3 } = loadDeliveryConfig(env);
  const client = s3Client(s3);
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (error) {
    await stop();
    throw error;
  } finally {
    client.destroy();
  }
  return { endpoint, bucket, env, s3, stop };
}

/** An s3rver, and an S3 client on it, for the enclosing `describe` (or file), stopped after it. */
export interface S3Suite {
  server: S3Server;
  client: S3Client;
}

/** Starts an S3Suite before the enclosing block's tests; read its fields inside tests and later hooks. */
export function setUpS3Server(): S3Suite {
  const suite = {} as S3Suite;
  beforeAll(async () => {
    suite.server = await startS3Server();
    suite.client = s3Client(suite.server.s3);
  });
  afterAll(async () => {
    suite.client?.destroy();
    await suite.server?.stop();
  });
  return suite;
}
