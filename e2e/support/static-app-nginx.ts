import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// How a static app's image is assembled: the module its Dockerfiles are checked against.
import { ENTRYPOINT, NGINX_COMMON_DIR, SITE_TEMPLATE_NAME, SITE_TEMPLATES } from '../../shared/deploy/static-app-files';
import { freePort, ROOT } from './site';

export interface StaticAppOptions {
  /** The app's folder in the repo (`shell`, `mfe-blog`…). */
  folder: string;
  /** The variables its container gets (SHELL_ORIGIN, API_UPSTREAMS, RELEASE_API…). */
  env: Record<string, string>;
  port?: number;
  /**
   * Whether to wait until the container's health check passes (nginx answers and, with
   * RELEASE_API, the build is published); false: until nginx answers.
   */
  untilHealthy?: boolean;
}

export interface RunningStaticApp {
  origin: string;
  port: number;
  /** NGINX_RUN_DIR: the shell's page cache is its `pages` folder. */
  runDir: string;
  /** The container's health check (`static-app-entrypoint health`) passes now. */
  healthy(): boolean;
  /** What the entrypoint and nginx wrote to standard error so far. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Runs a static app the way its container does: Debian's nginx started by the image's entrypoint
 * script, with the repo's templates, on 127.0.0.1.
 */
export async function startStaticApp({ folder, env, port: wanted, untilHealthy = true }: StaticAppOptions): Promise<RunningStaticApp> {
  const port = wanted ?? (await freePort());
  const workDir = mkdtempSync(path.join(os.tmpdir(), `agency-nginx-${folder}-`));
  const confDir = path.join(workDir, 'conf');
  const runDir = path.join(workDir, 'run');
  cpSync(path.join(ROOT, NGINX_COMMON_DIR), confDir, { recursive: true });
  cpSync(path.join(ROOT, folder === 'shell' ? SITE_TEMPLATES.shell : SITE_TEMPLATES.remote), path.join(confDir, SITE_TEMPLATE_NAME));
  const containerEnv = {
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
  };
  // A process group of its own: the entrypoint's background loops (the API's addresses watched,
  // the build published) outlive nginx outside a container, and stop with the group.
  const child = spawn(path.join(ROOT, ENTRYPOINT), [], { env: containerEnv, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const origin = `http://127.0.0.1:${port}`;
  const healthy = () => spawnSync(path.join(ROOT, ENTRYPOINT), ['health'], { env: containerEnv, timeout: 5_000 }).status === 0;
  const stop = async () => {
    const running = child.exitCode === null && child.signalCode === null;
    // nginx and the loops, even when nginx has exited already.
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // The group has ended already.
    }
    if (running) await exited;
    rmSync(workDir, { recursive: true, force: true });
  };
  // Publishing takes a few seconds: the upload, then every file stored and checked.
  const deadline = Date.now() + (untilHealthy ? 60_000 : 10_000);
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`nginx of ${folder} exited (${child.exitCode}):\n${output}`);
    }
    const ready = untilHealthy
      ? healthy()
      : await fetch(`${origin}/healthz`).then(
          (response) => response.status === 204,
          () => false,
        );
    if (ready) return { origin, port, runDir, healthy, output: () => output, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`nginx of ${folder} did not become ${untilHealthy ? 'healthy' : 'ready'} on ${origin}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
