import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { API_DIR, apiProcessCommand } from './api-process-command';
import { TEST_MEDIA_DIR } from './app';

export { API_DIR };

/**
 * Runs an entry point of the API (named by its source, `src/delivery/cli/release.ts`) as production does:
 * compiled, from `dist/`, in its own Node process. Each API suite's global setup brings the build
 * up to date first (build-global-setup.mjs); compiling in every process instead (tsx) cost about a
 * second of CPU per process, and the suites start a few hundred.
 */
export function runApiProcess(entry: string, args: string[], env: Record<string, string>, { terminal = false } = {}): ChildProcess {
  const { command: node, args: nodeArgs, cwd } = apiProcessCommand(entry, args);
  const command = [node, ...nodeArgs];
  // Backups off unless a suite turns them on: no process a test starts writes them into the checkout.
  const options = { cwd, env: { ...process.env, BACKUP_STORE: 'off', ...env } };
  if (!terminal) return spawn(node, nodeArgs, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  // On a pseudo-terminal, as in a developer's shell: util-linux `script` runs the command with its
  // stdin, stdout and stderr on one, copies what appears there to its own stdout, and what is
  // written to its stdin to the terminal (`\x03` is Ctrl-C). It exits with the command's code.
  const quoted = command.map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join(' ');
  return spawn('script', ['--quiet', '--return', '--command', `exec ${quoted}`, '/dev/null'], { ...options, stdio: 'pipe' });
}

/** Runs an entry point of the API (see runApiProcess) to its end: its exit code and what it printed. */
export function runToExit(entry: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = runApiProcess(entry, args, env);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  /** stdout and stderr, interleaved as they came. */
  output(): string;
  /** stdout alone: where the logs go. */
  stdout(): string;
  /** Resolves with the exit code (or the signal name) once the process has ended. */
  exited: Promise<number | string>;
}

/**
 * Starts the API's server (`src/server.ts`, compiled) on a free port of 127.0.0.1 and waits until /api/health answers 200.
 * With `terminal`, the server runs on a terminal (see runApiProcess), and `child` is `script`.
 */
export async function startServerProcess(env: Record<string, string>, { terminal = false } = {}): Promise<ServerProcess> {
  const port = await freePort();
  const child = runApiProcess('src/server.ts', [], {
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '1000000',
    STATIC_ROOT: path.join(API_DIR, 'test', 'no-static-root'),
    RELEASES_DIR: path.join(API_DIR, 'test', 'no-releases'),
    // Covers the content sync prepares at start stay out of the checkout's data/.
    MEDIA_DIR: TEST_MEDIA_DIR,
    ...env,
  }, { terminal });
  let output = '';
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((resolve) => {
    child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  let running = true;
  void exited.then(() => (running = false));
  // Polls until the server answers; a process that dies first fails the start.
  for (;;) {
    if (!running) throw new Error(`server process exited before it was ready:\n${output}`);
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.status === 200) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, baseUrl, output: () => output, stdout: () => stdout, exited };
}

/** The server processes one test file starts; `stopAll` (in afterEach or afterAll) ends each with `signal`. */
export function serverProcesses() {
  const running: ServerProcess[] = [];
  return {
    running,
    async start(env: Record<string, string>): Promise<ServerProcess> {
      const server = await startServerProcess(env);
      running.push(server);
      return server;
    },
    async stopAll(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
      for (const server of running.splice(0)) {
        server.child.kill(signal);
        await server.exited;
      }
    },
  };
}
