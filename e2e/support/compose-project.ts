import { execFile, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describeInBrowser } from './browser';
import { ROOT } from './site';

const run = promisify(execFile);

/** The production topology, and the same with the development overlay layered over it. */
export const COMPOSE_FILES = ['docker-compose.yml'];
export const DEV_COMPOSE_FILES = [...COMPOSE_FILES, 'docker-compose.dev.yml'];

/** The oldest Compose that reads the development overlay's `!reset` and `!override` tags. */
const MIN_COMPOSE = [2, 24] as const;

/** Why `docker compose` cannot run the topology here, or undefined when it can. */
export function composeUnavailable(): string | undefined {
  const engine = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { encoding: 'utf8', timeout: 30_000 });
  if (engine.error || engine.status !== 0) {
    const why = (engine.error?.message ?? engine.stderr).trim().split('\n')[0];
    return `no Docker engine answers (${why}). As root, ../shared/tools/container-engine up starts one`;
  }
  const compose = spawnSync('docker', ['compose', 'version', '--short'], { encoding: 'utf8', timeout: 30_000 });
  const version = /^v?(\d+)\.(\d+)/.exec(compose.stdout?.trim() ?? '');
  if (compose.status !== 0 || !version) return 'Docker Compose v2 is not installed (`docker compose version` fails)';
  const [major, minor] = [Number(version[1]), Number(version[2])];
  if (major < MIN_COMPOSE[0] || (major === MIN_COMPOSE[0] && minor < MIN_COMPOSE[1])) {
    return `Docker Compose ${compose.stdout.trim()} is older than ${MIN_COMPOSE.join('.')}, which the development overlay needs`;
  }
  return undefined;
}

/**
 * `describe` where a Docker engine with Compose v2 runs (and the browser suite runs). Elsewhere the
 * block is skipped with a loud warning that says why, except under CI, which starts an engine
 * (.ci/run): there the block fails with the reason.
 */
export function describeWithCompose(): jest.Describe {
  if (describeInBrowser !== describe) return describeInBrowser;
  const reason = composeUnavailable();
  if (!reason) return describe;
  if (process.env.CI) {
    return ((name: string) =>
      describe(name, () => {
        it('needs a Docker engine with Compose v2', () => {
          throw new Error(`The container suite cannot be skipped in CI: ${reason}.`);
        });
      })) as unknown as jest.Describe;
  }
  console.warn(`\n!! SKIPPED: the container suite (docker compose on a real engine): ${reason}.\n`);
  return describe.skip;
}

/** A copy of the repo's files (tracked and new ones, as git lists them) to build from and to edit. */
export function copyOfRepo(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agency-compose-'));
  const listed = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  // A file deleted but not yet committed is still listed: only what exists is copied.
  for (const file of listed.stdout.split('\0').filter((file) => file && existsSync(path.join(ROOT, file)))) {
    mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
    cpSync(path.join(ROOT, file), path.join(dir, file));
  }
  return dir;
}

/** One container, as `docker compose ps --format json` describes it. */
export interface ComposeContainer {
  ID: string;
  Name: string;
  Service: string;
  State: string;
  Health: string;
}

/** What shows that a container was not replaced or restarted. */
export interface ContainerLife {
  id: string;
  startedAt: string;
  restartCount: number;
}

/**
 * `docker compose` on a copy of the repo under a project name of its own, with the given
 * environment (ports and addresses) in place of an .env file.
 */
export class ComposeProject {
  /** What the run measured (how long each named step took, and the like), for the suite's log. */
  readonly report: string[] = [];

  constructor(
    readonly dir: string,
    readonly name: string,
    readonly env: Record<string, string>,
  ) {}

  /**
   * Runs `docker compose <args>` and returns its standard output; fails with the end of its output.
   * `env`: variables for this command only, over the project's.
   */
  async compose(args: string[], files = COMPOSE_FILES, env: Record<string, string> = {}): Promise<string> {
    const fileArgs = files.flatMap((file) => ['-f', file]);
    try {
      const { stdout } = await run('docker', ['compose', '-p', this.name, ...fileArgs, ...args], {
        cwd: this.dir,
        env: { ...process.env, ...this.env, ...env },
        maxBuffer: 64 * 1024 * 1024,
      });
      return stdout;
    } catch (error) {
      const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
      const tail = `${stdout}\n${stderr}`.trim().split('\n').slice(-40).join('\n');
      throw new Error(`docker compose ${args.join(' ')} failed:\n${tail}`);
    }
  }

  /** Runs `step` and notes how long it took under `label`. */
  async timed<T>(label: string, step: () => Promise<T>): Promise<T> {
    const started = Date.now();
    const result = await step();
    this.report.push(`${label}: ${Math.round((Date.now() - started) / 100) / 10} s`);
    return result;
  }

  /** Every container of the project, stopped ones included. */
  async containers(files = COMPOSE_FILES): Promise<ComposeContainer[]> {
    const output = (await this.compose(['ps', '--all', '--format', 'json'], files)).trim();
    if (!output) return [];
    // One object per line since Compose 2.21, one array before.
    return output.startsWith('[') ? (JSON.parse(output) as ComposeContainer[]) : output.split('\n').map((line) => JSON.parse(line) as ComposeContainer);
  }

  /** `docker inspect` of every container: the fields `format` prints (space-separated), by container name. */
  private async inspectEach(format: string): Promise<Record<string, string[]>> {
    const containers = await this.containers();
    const { stdout } = await run('docker', ['inspect', '--format', `{{.Name}} ${format}`, ...containers.map((c) => c.ID)]);
    return Object.fromEntries(
      stdout
        .trim()
        .split('\n')
        .map((line) => {
          const [name, ...fields] = line.trim().split(' ');
          return [name!.replace(/^\//, ''), fields];
        }),
    );
  }

  /** Each running container's identity, start time and restart count, by container name. */
  async lives(): Promise<Record<string, ContainerLife>> {
    const fields = await this.inspectEach('{{.Id}} {{.State.StartedAt}} {{.RestartCount}}');
    return Object.fromEntries(
      Object.entries(fields).map(([name, [id, startedAt, restartCount]]) => [name, { id: id!, startedAt: startedAt!, restartCount: Number(restartCount) }]),
    );
  }

  /** The named volumes mounted into each running container, by container name. */
  volumes(): Promise<Record<string, string[]>> {
    return this.inspectEach('{{range .Mounts}}{{if eq .Type "volume"}}{{.Name}} {{end}}{{end}}');
  }

  /** Each container's state and health, and the last lines each service wrote: what a failing test reports. */
  async whatItSaw(lines = 15): Promise<string> {
    const states = (await this.containers()).map((container) => `  ${container.Name}: ${container.State} ${container.Health}`.trimEnd());
    const logs = await this.compose(['logs', '--no-color', '--timestamps', '--tail', String(lines)]).catch((error: Error) => error.message);
    const said = logs
      .trim()
      .split('\n')
      .map((line) => `  ${line.slice(0, 300)}`);
    return `the project's containers:\n${states.join('\n')}\nwhat each service wrote last:\n${said.join('\n')}`;
  }

  /** Stops a container with `docker stop`: SIGTERM, as an orchestrator does before replacing it. */
  async stopContainer(name: string): Promise<void> {
    await run('docker', ['stop', name]);
  }

  /** Kills a container with `docker kill` (SIGKILL), as a crash or the kernel's OOM killer does: no shutdown at all. */
  async killContainer(name: string): Promise<void> {
    await run('docker', ['kill', name]);
  }

  /** `docker restart`: stops a container (SIGTERM, then SIGKILL after 10 s) and starts it again. */
  async restartContainer(name: string): Promise<void> {
    await run('docker', ['restart', name]);
  }

  async startContainer(name: string): Promise<void> {
    await run('docker', ['start', name]);
  }

  /** Removes one of the project's named volumes (`pgdata` → `<project>_pgdata`): a disk lost with its machine. */
  async removeVolume(volume: string): Promise<void> {
    await run('docker', ['volume', 'rm', `${this.name}_${volume}`]);
  }

  /**
   * Removes the project's containers, networks and the production topology's volumes (its
   * database, release store, covers, metrics). The development overlay's installed packages stay
   * for the next run, whose `install` skips `npm ci` while the lockfile is the one they came from
   * (about a CPU-minute and two minutes of waiting), and so do the current images, as the next
   * run's build cache; the ones they replaced go.
   */
  async remove(): Promise<void> {
    await this.compose(['down', '--remove-orphans', '--timeout', '10'], DEV_COMPOSE_FILES);
    const volumes = (await this.compose(['--profile', '*', 'config', '--volumes'])).split('\n').filter(Boolean);
    await run('docker', ['volume', 'rm', '--force', ...volumes.map((volume) => `${this.name}_${volume}`)]);
    await run('docker', ['image', 'prune', '--force', '--filter', `label=com.docker.compose.project=${this.name}`]);
  }
}
