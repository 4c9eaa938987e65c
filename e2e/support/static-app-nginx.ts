import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// How a static app's image is assembled: the module its Dockerfiles are checked against.
import { ENTRYPOINT, NGINX_COMMON_DIR, SITE_TEMPLATE_NAME, SITE_TEMPLATES } from '../../shared/deploy/static-app-files';
import { freePort, ROOT } from './site';

export interface StaticAppOptions {
  /** The app's folder in the repo (`shell`, `mfe-blog`…). */
  folder: string;
  /** The variables its container gets (SHELL_ORIGIN, API_UPSTREAMS, BUILDS_DIR…). */
  env: Record<string, string>;
  port?: number;
}

export interface RunningStaticApp {
  origin: string;
  port: number;
  /** NGINX_RUN_DIR: the shell's page cache is its `pages` folder. */
  runDir: string;
  stop(): Promise<void>;
}

/**
 * Runs a static app the way its container does: Debian's nginx started by the image's entrypoint
 * script, with the repo's templates, on 127.0.0.1.
 */
export async function startStaticApp({ folder, env, port: wanted }: StaticAppOptions): Promise<RunningStaticApp> {
  const port = wanted ?? (await freePort());
  const workDir = mkdtempSync(path.join(os.tmpdir(), `agency-nginx-${folder}-`));
  const confDir = path.join(workDir, 'conf');
  const runDir = path.join(workDir, 'run');
  cpSync(path.join(ROOT, NGINX_COMMON_DIR), confDir, { recursive: true });
  cpSync(path.join(ROOT, folder === 'shell' ? SITE_TEMPLATES.shell : SITE_TEMPLATES.remote), path.join(confDir, SITE_TEMPLATE_NAME));
  const child = spawn(path.join(ROOT, ENTRYPOINT), [], {
    env: {
      // Debian puts nginx in /usr/sbin, which a non-root PATH may lack.
      PATH: `${process.env.PATH}:/usr/sbin`,
      APP_FOLDER: folder,
      APP_ROOT: path.join(ROOT, folder, 'dist'),
      LISTEN_PORT: String(port),
      NGINX_CONF_DIR: confDir,
      NGINX_RUN_DIR: runDir,
      // In a container nginx runs as its image's user; here the master may be root.
      ...(process.getuid?.() === 0 ? { NGINX_EXTRA_GLOBALS: 'user root;' } : {}),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const origin = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(workDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`nginx of ${folder} exited (${child.exitCode}):\n${output}`);
    }
    const healthy = await fetch(`${origin}/healthz`).then(
      (response) => response.status === 204,
      () => false,
    );
    if (healthy) return { origin, port, runDir, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`nginx of ${folder} did not answer on ${origin}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
