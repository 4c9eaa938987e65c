import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './site';

const run = promisify(execFile);

/** Where the node's and the registry's images are built from. */
const IMAGES_DIR = path.join(ROOT, 'e2e/support/swarm');
/** The port the registry listens on, on the swarm's network; the machines pull from `registry:5000`. */
const REGISTRY_PORT = 5000;
/** How each machine names the registry (its dockerd trusts it over plain HTTP). */
export const REGISTRY = `registry:${REGISTRY_PORT}`;
/**
 * Where this machine pushes to the registry: the same loopback port every run. Docker remembers
 * which layers it pushed to which registry (by host and port); with the registry's volume kept,
 * a layer pushed before is only checked, not compressed and sent again. Below the ports the system
 * hands out by itself, so no connection of a suite running beside can hold it (freePortForLater).
 */
const PUSH_PORT = 28500;
/** The registry's storage in the registry image's configuration (e2e/support/swarm/registry.Dockerfile). */
const REGISTRY_STORAGE = '/var/lib/docker-registry';
/** The port each machine's engine answers on, on the swarm's network only (the CLI's SWARM_HOST). */
const ENGINE_PORT = 2375;

/**
 * A machine's container: Debian's dockerd without --privileged (this kernel refuses it): every
 * capability but one the machine lacks, no seccomp or AppArmor profile, the host's cgroups
 * read-write (cgroup v1: containers inside need to make their own), its images in a volume.
 */
const NODE_FLAGS = [
  '--cap-add', 'ALL', '--cap-drop', 'SYS_RESOURCE',
  '--security-opt', 'seccomp=unconfined', '--security-opt', 'apparmor=unconfined', '--security-opt', 'systempaths=unconfined',
  '--cgroupns=host', '--volume', '/sys/fs/cgroup:/sys/fs/cgroup:rw',
];

/** Runs `docker <args>` on this machine's engine; fails with the end of its output. */
export async function docker(args: string[], input?: string): Promise<string> {
  if (input !== undefined) {
    return new Promise((resolve, reject) => {
      const child = spawn('docker', args, { stdio: ['pipe', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('close', (code) => (code === 0 ? resolve(output) : reject(new Error(`docker ${args.join(' ')} failed:\n${output}`))));
      child.stdin.end(input);
    });
  }
  try {
    const { stdout } = await run('docker', args, { maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`docker ${args.join(' ')} failed:\n${`${stdout}\n${stderr}`.trim().split('\n').slice(-30).join('\n')}`);
  }
}

export interface SwarmNode {
  /** The node's hostname in the swarm (`node1`…). */
  name: string;
  /** Its container on this machine. */
  container: string;
  /** Its address on the swarm's network, where it publishes the site. */
  address: string;
}

/**
 * A swarm of docker-in-docker machines on one bridge network of this machine's engine, every one a
 * manager (losing one keeps the quorum), the first labelled for the data services, and a registry
 * they pull from, which this machine pushes to on a published loopback port.
 */
export class SwarmCluster {
  private constructor(
    readonly prefix: string,
    readonly nodes: SwarmNode[],
    /** `127.0.0.1:<port>`: the registry as this machine pushes to it. */
    readonly pushRegistry: string,
  ) {}

  /** A manager's engine for the Docker CLI (`--host`): the first node still running. */
  managerHost(alive: SwarmNode[] = this.nodes): string {
    return `tcp://${alive[0]!.address}:${ENGINE_PORT}`;
  }

  /** `docker <args>` against the swarm (the first node, or the first of `alive`). */
  swarm(args: string[], alive?: SwarmNode[]): Promise<string> {
    return docker(['--host', this.managerHost(alive), ...args]);
  }

  /** What a service's tasks wrote (standard output and error) in the last `since` (`2m`), with timestamps. */
  serviceLogs(service: string, since: string, alive?: SwarmNode[]): Promise<string> {
    // With input, docker() keeps standard error too: where nginx and a crashed process write.
    return docker(['--host', this.managerHost(alive), 'service', 'logs', '--timestamps', '--since', since, service], '');
  }

  /** `docker <args>` on one machine's own engine. */
  onNode(node: SwarmNode, args: string[]): Promise<string> {
    return docker(['--host', `tcp://${node.address}:${ENGINE_PORT}`, ...args]);
  }

  /** Kills a machine's container (SIGKILL): the machine is gone, as a power cut takes it. */
  async kill(node: SwarmNode): Promise<void> {
    await docker(['kill', node.container]);
  }

  static async start(prefix: string, count: number): Promise<SwarmCluster> {
    await SwarmCluster.removeAll(prefix);
    const [nodeImage, registryImage] = [`${prefix}-node`, `${prefix}-registry`];
    await docker(['build', '--quiet', '--tag', nodeImage, '--file', path.join(IMAGES_DIR, 'node.Dockerfile'), IMAGES_DIR]);
    await docker(['build', '--quiet', '--tag', registryImage, '--file', path.join(IMAGES_DIR, 'registry.Dockerfile'), IMAGES_DIR]);
    const network = `${prefix}-net`;
    await docker(['network', 'create', '--label', `${prefix}=1`, network]);
    // The registry's images outlive the run, in a volume of their own: what an earlier run pushed
    // and no tag names any more goes first, so the volume holds about one run's images.
    const storage = ['--volume', `${prefix}-registry-storage:${REGISTRY_STORAGE}`];
    await docker(['run', '--rm', ...storage, '--entrypoint', 'sh', registryImage, '-c',
      // A new volume has nothing to collect (and the collector fails on it).
      `[ ! -d ${REGISTRY_STORAGE}/docker/registry/v2/repositories ] || docker-registry garbage-collect --delete-untagged /etc/docker/registry/config.yml`]);
    const registry = `${prefix}-registry`;
    await docker(['run', '--detach', '--name', registry, '--label', `${prefix}=1`, '--network', network, '--network-alias', 'registry',
      ...storage, '--publish', `127.0.0.1:${PUSH_PORT}:${REGISTRY_PORT}`, registryImage]);
    const pushRegistry = `127.0.0.1:${PUSH_PORT}`;

    const nodes: SwarmNode[] = [];
    for (let index = 1; index <= count; index += 1) {
      const name = `node${index}`;
      const container = `${prefix}-${name}`;
      await docker(['run', '--detach', '--name', container, '--hostname', name, '--label', `${prefix}=1`, ...NODE_FLAGS, '--network', network, nodeImage,
        `--host=unix:///var/run/docker.sock`, `--host=tcp://0.0.0.0:${ENGINE_PORT}`, `--insecure-registry=${REGISTRY}`]);
      const address = (await docker(['inspect', '--format', '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}', container])).trim();
      nodes.push({ name, container, address });
    }
    const cluster = new SwarmCluster(prefix, nodes, pushRegistry);
    for (const node of nodes) await cluster.untilEngineAnswers(node);
    const [first, ...others] = nodes;
    await cluster.onNode(first!, ['swarm', 'init', '--advertise-addr', first!.address]);
    const token = (await cluster.onNode(first!, ['swarm', 'join-token', '--quiet', 'manager'])).trim();
    for (const node of others) await cluster.onNode(node, ['swarm', 'join', '--token', token, `${first!.address}:2377`]);
    await cluster.swarm(['node', 'update', '--label-add', 'agency.data=true', first!.name]);
    return cluster;
  }

  private async untilEngineAnswers(node: SwarmNode): Promise<void> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        await this.onNode(node, ['info', '--format', '{{.ServerVersion}}']);
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }

  /** Pushes a local image to the registry as `<REGISTRY>/<name>`; returns that name, as the machines pull it. */
  async push(localImage: string, name: string): Promise<string> {
    await docker(['tag', localImage, `${this.pushRegistry}/${name}`]);
    await docker(['push', '--quiet', `${this.pushRegistry}/${name}`]);
    return `${REGISTRY}/${name}`;
  }

  /** Removes every container (with its volumes: the machines' images) and the network of `prefix`. */
  static async removeAll(prefix: string): Promise<void> {
    const containers = (await docker(['ps', '--all', '--quiet', '--filter', `label=${prefix}=1`])).trim().split('\n').filter(Boolean);
    if (containers.length > 0) await docker(['rm', '--force', '--volumes', ...containers]);
    const networks = (await docker(['network', 'ls', '--quiet', '--filter', `label=${prefix}=1`])).trim().split('\n').filter(Boolean);
    for (const network of networks) await docker(['network', 'rm', network]);
  }

  /** Removes the machines, and this machine's tags of what it pushed (the registry's volume stays). */
  async remove(): Promise<void> {
    await SwarmCluster.removeAll(this.prefix);
    // An image whose tag moved to a newer push keeps only its digest: it is named by that.
    const pushed = (await docker(['images', '--digests', '--format', '{{.Repository}} {{.Tag}} {{.Digest}}']))
      .split('\n')
      .map((line) => line.split(' '))
      .filter(([repository]) => repository?.startsWith(`${this.pushRegistry}/`))
      .map(([repository, tag, digest]) => (tag !== '<none>' ? `${repository}:${tag}` : digest !== '<none>' ? `${repository}@${digest}` : undefined))
      .filter((image): image is string => image !== undefined);
    if (pushed.length > 0) await docker(['rmi', ...pushed]);
  }
}
