import { spawn } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import { freePort } from './server-process';

export interface RedisServer {
  port: number;
  /** `redis://127.0.0.1:<port>` */
  url: string;
  output(): string;
  /** Stops the server (SIGTERM, SIGKILL if it lingers) and waits until it has exited. */
  stop(): Promise<void>;
}

/** True once a PING on the port is answered with PONG. */
function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

/**
 * Starts a real `redis-server` (no persistence) on a free port of 127.0.0.1 and waits until it
 * answers. Fails, never skips, when the binary is missing: CI installs it (apt-get install redis-server).
 */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    cwd: os.tmpdir(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let failure: Error | undefined;
  const exited = new Promise<void>((resolve) => {
    child.on('error', (error: NodeJS.ErrnoException) => {
      failure =
        error.code === 'ENOENT'
          ? new Error('redis-server is not installed (apt-get install -y redis-server); the Redis rate-limit tests need it')
          : error;
      resolve();
    });
    child.on('exit', (code, signal) => {
      failure ??= new Error(`redis-server exited (${code ?? signal}) before it was ready:\n${output}`);
      resolve();
    });
  });
  let running = true;
  void exited.then(() => (running = false));
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (!running) throw failure;
    if (await pings(port)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`redis-server did not answer on port ${port} within 10 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    output: () => output,
    stop: async () => {
      if (!running) return;
      const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(kill);
    },
  };
}
