import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ENTRYPOINT, NGINX_COMMON_DIR, NGINX_CONF_DIR, SITE_TEMPLATE_NAME, SITE_TEMPLATES } from './static-app-files';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { STATIC_APP_DOCKERFILE, staticAppBuildArgs } = require('./static-app-image.js') as {
  STATIC_APP_DOCKERFILE: string;
  staticAppBuildArgs: (folder: string) => { APP_FOLDER: string; RELEASE_APP: string };
};

// docker-compose.yml, docker-compose.dev.yml and the Dockerfiles (the API's, the static apps'), read as files: the rules
// they keep (ports, health checks, users, volumes), checked in milliseconds and with no engine.
// e2e/docker-compose.e2e.test.ts runs them for real.

const ROOT = path.resolve(__dirname, '../..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const apps = require('../webpack/apps.js') as {
  HOST: { id: string; folder: string; devPort: number };
  API: { folder: string; devPort: number };
  REMOTES: { id: string; folder: string; devPort: number; urlVariable: string }[];
};
const STATIC_APPS = [apps.HOST.folder, ...apps.REMOTES.map((remote) => remote.folder)];
/** The name the release API knows each static app's folder by (`mfe-blog` → `blog`). */
const RELEASE_NAMES: Record<string, string> = Object.fromEntries([apps.HOST, ...apps.REMOTES].map((app) => [app.folder, app.id]));
const APP_FOLDERS = [...STATIC_APPS, apps.API.folder];
const API_DOCKERFILE = `${apps.API.folder}/Dockerfile`;
const DEV_PORTS = [apps.HOST, apps.API, ...apps.REMOTES].map((app) => app.devPort);
/** The Node lines `engines.node` supports (`^22.13.0 || ^24.0.0` → 22, 24). */
const SUPPORTED_NODE_MAJORS = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node
  .split('||')
  .map((range) => Number(/\d+/.exec(range)?.[0]));

interface Service {
  build?: { context: string; dockerfile: string; target?: string; args?: Record<string, string> };
  image?: string;
  user?: string;
  entrypoint?: string[];
  command?: string[];
  environment?: Record<string, string>;
  ports?: PortMapping[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[]; start_period?: string };
  profiles?: string[];
  secrets?: string[];
  deploy?: Deploy;
}
/** Swarm's part of a service (docker-stack.yml); compose reads `replicas` only. */
interface Deploy {
  replicas?: number | string;
  mode?: string;
  endpoint_mode?: string;
  placement?: { constraints?: string[]; preferences?: { spread: string }[] };
  update_config?: { order: string; failure_action: string; parallelism: number; monitor?: string };
  rollback_config?: { order: string; failure_action?: string };
}
/** Compose's long port syntax: the container's port, the host's (a variable with a default) and address. */
interface PortMapping {
  target: number;
  published: string;
  host_ip?: string;
  mode?: string;
}
interface ComposeFile {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
  secrets?: Record<string, { external?: boolean }>;
}

/** A compose file as compose reads it: YAML merge keys; the `!reset`/`!override` merge tags are read as plain values. */
function readCompose(file: string): ComposeFile {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/ !(?:reset|override)\b/g, '');
  return parse(text, { merge: true }) as ComposeFile;
}

/** `${NAME:-default}` as compose fills it in with nothing set, defaults nested in defaults included. */
function withDefaults(value: string): string {
  const filled = value.replace(/\$\{[A-Z_]+:-([^{}]*)\}/g, '$1');
  return filled === value ? value : withDefaults(filled);
}

const hostPort = (mapping: PortMapping) => Number(withDefaults(mapping.published));

/** The prefix of an app’s own variables in the compose file (`mfe-blog` → `MFE_BLOG`). */
const variablePrefix = (folder: string) => folder.toUpperCase().replace(/-/g, '_');

interface Stage {
  from: string;
  /** The stage's name (`FROM … AS <name>`), if it has one. */
  name?: string;
  lines: string[];
}

/** A Dockerfile's stages: each `FROM` (its image with the global ARGs' defaults filled in) and the instructions below it. */
function readDockerfile(file: string): Stage[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/\\\n(\s*#.*\n)*/g, ' ');
  const stages: Stage[] = [];
  const globalArgs: Record<string, string> = {};
  for (const line of text.split('\n').map((each) => each.trim())) {
    if (line === '' || line.startsWith('#')) continue;
    const arg = /^ARG (\w+)=(\S+)$/.exec(line);
    if (arg && stages.length === 0) globalArgs[arg[1]!] = arg[2]!;
    else if (line.startsWith('FROM ')) {
      const [image, , name] = line.slice(5).trim().split(/\s+/);
      stages.push({ from: image!.replace(/\$\{(\w+)\}/g, (whole, variable: string) => globalArgs[variable] ?? whole), name, lines: [] });
    } else stages.at(-1)!.lines.push(line);
  }
  return stages;
}

/** The stage a service's image is built to: its `target`, else the Dockerfile's last (Docker's default). */
function builtStage(build: NonNullable<Service['build']>): Stage {
  const stages = readDockerfile(build.dockerfile);
  const stage = build.target === undefined ? stages.at(-1) : stages.find((each) => each.name === build.target);
  if (!stage) throw new Error(`${build.dockerfile} has no stage ${build.target}`);
  return stage;
}

/** Where the postgres image keeps its data (PGDATA), where the servers' volume is mounted. */
const PG_DATA_DIR = '/var/lib/postgresql/data';
/** The spool PostgreSQL archives WAL into and the backup agent ships from: inside the data volume, so both see it. */
const WAL_SPOOL = `${PG_DATA_DIR}/wal-spool`;

/**
 * The archive settings the API's code gives a PostgreSQL server (api/src/platform/backup/postgres/
 * postgres-wal-archive.ts), from its source. The sealing that module also imports (age-encryption,
 * published as ES modules only, which this suite does not compile) is not needed here and is left out.
 */
function walArchiveSettings(spoolDir: string): Record<string, string> {
  const backupDir = path.join(ROOT, 'api/src/platform/backup');
  jest.doMock(path.join(backupDir, 'backup-cipher'), () => ({}));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const archive = require(path.join(backupDir, 'postgres/postgres-wal-archive')) as { walArchiveSettings: (dir: string) => Record<string, string> };
  return archive.walArchiveSettings(spoolDir);
}

/** A server's `-c name=value` settings, from its command line (`postgres -c … -c …`). */
function commandLineSettings(command: string[] | undefined): Record<string, string> {
  const args = command ?? [];
  expect(args[0]).toBe('postgres');
  const settings: Record<string, string> = {};
  for (let index = 1; index < args.length; index += 2) {
    expect([args[index], args[index + 1]]).toEqual(['-c', expect.stringContaining('=')]);
    const setting = args[index + 1]!;
    settings[setting.slice(0, setting.indexOf('='))] = setting.slice(setting.indexOf('=') + 1);
  }
  return settings;
}

/** `COPY` instructions of a stage taken from the build context (not `--from` another stage). */
function contextCopies(stage: Stage): { sources: string[]; target: string }[] {
  return stage.lines
    .filter((line) => line.startsWith('COPY ') && !line.includes('--from='))
    .map((line) => {
      const parts = line.slice(5).trim().split(/\s+/);
      return { sources: parts.slice(0, -1), target: parts.at(-1)! };
    });
}

describe('docker-compose.yml', () => {
  const compose = readCompose('docker-compose.yml');
  const { services } = compose;

  it('runs each app in a service of its own, the API built from its Dockerfile and every static app from static-app.Dockerfile told the app, next to the database, its backup agent and the rate-limit store', () => {
    expect(Object.keys(services).sort()).toEqual([...APP_FOLDERS, 'postgres', 'backup-agent', 'valkey', 'prometheus'].sort());
    expect(services[apps.API.folder]!.build).toEqual({ context: '.', dockerfile: API_DOCKERFILE, target: 'api' });
    expect(services['backup-agent']!.build).toEqual({ context: '.', dockerfile: API_DOCKERFILE, target: 'backup-agent' });
    for (const folder of STATIC_APPS) {
      expect([folder, services[folder]!.build]).toEqual([folder, { context: '.', dockerfile: STATIC_APP_DOCKERFILE, args: staticAppBuildArgs(folder) }]);
    }
  });

  it('gives every service a health check, in the file or in its image', () => {
    for (const [name, service] of Object.entries(services)) {
      const inImage = service.build && builtStage(service.build).lines.some((line) => line.startsWith('HEALTHCHECK '));
      expect([name, Boolean(service.healthcheck ?? inImage)]).toEqual([name, true]);
    }
  });

  it('runs Prometheus only when asked for, with the monitoring profile', () => {
    const withProfiles = Object.entries(services).filter(([, service]) => service.profiles);
    expect(withProfiles.map(([name, service]) => [name, service.profiles])).toEqual([['prometheus', ['monitoring']]]);
  });

  it('starts the API on a healthy database and store, and every app (which publishes through it) on a healthy API', () => {
    expect(services.api!.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, valkey: { condition: 'service_healthy' } });
    for (const folder of STATIC_APPS) expect([folder, services[folder]!.depends_on]).toEqual([folder, { api: { condition: 'service_healthy' } }]);
    expect(services.postgres!.volumes).toContain('pgdata:/var/lib/postgresql/data');
    expect(Object.keys(compose.volumes ?? {})).toContain('pgdata');
  });

  it('scales the API out: two replicas on the one PostgreSQL, sharing the rate limit in valkey, behind the shell’s nginx', () => {
    const api = services.api!;
    expect(api.deploy?.replicas).toBeGreaterThanOrEqual(2);
    expect(new URL(api.environment!.DATABASE_URL!).hostname).toBe('postgres');
    expect(new URL(api.environment!.REDIS_URL!).hostname).toBe('valkey');
    // Replicas cannot share a published port; the shell's nginx reaches them by the service name.
    expect(api.ports).toBeUndefined();
    expect(services[apps.HOST.folder]!.environment!.API_UPSTREAMS).toBe('api:8080');
  });

  it('publishes the site on 8080 and each remote on a port of its own that `npm run dev` does not use', () => {
    const published = Object.entries(services).flatMap(([name, service]) => (service.ports ?? []).map((port) => ({ name, port: hostPort(port) })));
    expect(new Set(published.map(({ port }) => port)).size).toBe(published.length);
    expect(services[apps.HOST.folder]!.ports!.map(hostPort)).toEqual([8080]);
    for (const remote of apps.REMOTES) {
      const [port] = services[remote.folder]!.ports!.map(hostPort);
      expect([remote.folder, DEV_PORTS.includes(port!)]).toEqual([remote.folder, false]);
    }
  });

  it('takes every published port from a variable of its own, on the address PUBLISH_ADDRESS names', () => {
    const mappings = Object.values(services).flatMap((service) => service.ports ?? []);
    const variables = mappings.map((mapping) => /^\$\{([A-Z_]+_PORT):-\d+\}$/.exec(mapping.published)?.[1]);
    expect(variables).not.toContain(undefined);
    expect(new Set(variables).size).toBe(mappings.length);
    for (const mapping of mappings) expect(mapping.host_ip).toBe('${PUBLISH_ADDRESS:-}');
  });

  it('publishes each app’s build through the API’s release API, with a token the API accepts for that app alone', () => {
    const api = services.api!;
    // RELEASE_TOKENS as the API gets it without a .env: `name=app,app:token …`.
    const provisioned = withDefaults(api.environment!.RELEASE_TOKENS!)
      .split(/\s+/)
      .map((entry) => /^([^=]+)=([^:]*):(.+)$/.exec(entry)!)
      .map(([, , appList, token]) => ({ apps: appList!.split(','), token: token! }));
    const apiPort = builtStage(services.api!.build!).lines.find((line) => line.startsWith('ENV '))!.match(/\bPORT=(\d+)/)![1];
    for (const folder of STATIC_APPS) {
      const environment = services[folder]!.environment!;
      expect([folder, environment.RELEASE_API]).toEqual([folder, `http://api:${apiPort}`]);
      expect([folder, withDefaults(environment.RELEASE_POLICY!)]).toEqual([folder, 'current']);
      const token = withDefaults(environment.RELEASE_TOKEN!);
      // A development token (the API takes `dev-…` ones only on localhost), for this app alone.
      expect([folder, token]).toEqual([folder, expect.stringMatching(/^dev-/)]);
      expect([folder, provisioned.filter((entry) => entry.token === token).map((entry) => entry.apps)]).toEqual([folder, [[RELEASE_NAMES[folder]]]]);
      // Overridable per app, for a public site's real tokens.
      expect([folder, environment.RELEASE_TOKEN]).toEqual([folder, `\${${variablePrefix(folder)}_RELEASE_TOKEN:-${token}}`]);
    }
    expect(provisioned).toHaveLength(STATIC_APPS.length);
  });

  it('shares no volume between the API and any app’s container; the release store is a volume of the API’s', () => {
    for (const folder of STATIC_APPS) expect([folder, services[folder]!.volumes]).toEqual([folder, undefined]);
    const apiImage = builtStage(services.api!.build!).lines.filter((line) => line.startsWith('ENV ')).join(' ');
    const store = /\bRELEASE_STORE=file:(\S+)/.exec(apiImage)![1];
    expect(services.api!.volumes).toContain(`release-store:${store}`);
    expect(withDefaults(services.api!.environment!.RELEASE_STORE!)).toBe(`file:${store}`);
    expect(Object.keys(compose.volumes ?? {})).toContain('release-store');
  });

  it('has PostgreSQL archive its WAL into the spool with the settings the API’s code gives, and keeps its health check', () => {
    const postgres = services.postgres!;
    expect(postgres.volumes).toContain(`pgdata:${PG_DATA_DIR}`);
    expect(commandLineSettings(postgres.command)).toEqual(walArchiveSettings(WAL_SPOOL));
    expect(postgres.healthcheck?.test).toEqual(['CMD-SHELL', 'pg_isready -U agency -d agency']);
  });

  it('runs the backup agent as the server’s user, on its data volume, from an image built on the server’s, storing where the API reads', () => {
    const agent = services['backup-agent']!;
    const api = services.api!;
    const stage = builtStage(agent.build!);
    // The same image as the server: the same uid owns the data directory, the same major version runs the drills.
    expect(stage.from).toBe(services.postgres!.image);
    expect([agent.user, stage.lines.filter((line) => line.startsWith('USER ')).at(-1)]).toEqual(['postgres', 'USER postgres']);
    expect(stage.lines.find((line) => line.startsWith('CMD '))).toBe('CMD ["node", "api/dist/staff/cli/backup.js", "agent"]');
    // The postgres image's entrypoint would make a cluster in an empty data directory: a restore's.
    expect(stage.lines).toContain('ENTRYPOINT []');
    expect(stage.lines.find((line) => line.startsWith('ENV '))).toMatch(/\bPG_BIN_DIR=\S+/);

    const environment = agent.environment!;
    expect(agent.volumes).toEqual([`pgdata:${PG_DATA_DIR}`, 'backups:/var/lib/agency/backups', 'backup-key:/var/lib/agency/backup-key']);
    expect(environment.BACKUP_PG_DATA_DIR).toBe(PG_DATA_DIR);
    // The agent's default spool (`<data dir>/wal-spool`) is where the server archives.
    expect(environment.BACKUP_WAL_SPOOL).toBeUndefined();
    expect(path.posix.dirname(WAL_SPOOL)).toBe(PG_DATA_DIR);
    expect(environment.BACKUP_KEY_PATH).toMatch(/^\/var\/lib\/agency\/backup-key\//);
    expect(environment.BACKUP_KEY).toBe('${BACKUP_KEY:-}');
    expect(new URL(environment.DATABASE_URL!).hostname).toBe('postgres');
    expect(agent.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });

    // One store for both: the agent writes the backups, the API reads their state and journals erasures there.
    expect(environment.BACKUP_STORE).toBe(api.environment!.BACKUP_STORE);
    expect(withDefaults(environment.BACKUP_STORE!)).toBe('file:/var/lib/agency/backups');
    expect(api.volumes).toContain('backups:/var/lib/agency/backups');
    for (const variable of ['S3_ENDPOINT', 'AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']) expect([variable, environment[variable]]).toEqual([variable, api.environment![variable]]);
    expect(Object.keys(compose.volumes ?? {})).toEqual(expect.arrayContaining(['backups', 'backup-key']));
    expect(api.environment!.OPS_WEBHOOK_URL).toBe('${OPS_WEBHOOK_URL:-}');
  });
});

describe('docker-stack.yml', () => {
  const stack = readCompose('docker-stack.yml');
  const { services } = stack;
  const compose = readCompose('docker-compose.yml');
  /** Services that own a volume: one task each, on the machine labelled for data. */
  const STATEFUL = ['postgres', 'backup-agent', 'object-store'];
  /** Variables that hold a password, token or secret: only ever given as files. */
  const SECRET_VARIABLES = /^(DATABASE_PASSWORD|RELEASE_TOKENS?|LEADS_WEBHOOK_SECRET|OPS_WEBHOOK_SECRET|TELEGRAM_BOT_TOKEN|SMTP_URL|METRICS_TOKEN|AWS_ACCESS_KEY_ID|AWS_SECRET_ACCESS_KEY|POSTGRES_PASSWORD|BACKUP_KEY)$/;

  it('runs the services of docker-compose.yml (the monitoring profile aside) and an object store, from images in REGISTRY, building nothing', () => {
    const composed = Object.entries(compose.services).filter(([, service]) => !service.profiles).map(([name]) => name);
    expect(Object.keys(services).sort()).toEqual([...composed, 'object-store'].sort());
    for (const [name, service] of Object.entries(services)) {
      expect([name, service.build, service.depends_on]).toEqual([name, undefined, undefined]);
    }
    for (const folder of [...APP_FOLDERS, 'backup-agent']) expect([folder, withDefaults(services[folder]!.image!)]).toEqual([folder, expect.stringMatching(new RegExp(`^\\$\\{REGISTRY(:\\?[^}]*)?\\}/agency-${folder}:latest$`))]);
  });

  it('has PostgreSQL archive its WAL as under compose, and runs the backup agent beside it on the data machine, storing in the object store', () => {
    const postgres = services.postgres!;
    // The entrypoint reads the password, then hands the command line on to the image's own.
    expect(postgres.entrypoint?.at(-2)).toMatch(/exec docker-entrypoint\.sh "\$\$@"$/);
    expect(commandLineSettings(postgres.command)).toEqual(walArchiveSettings(WAL_SPOOL));
    const agent = services['backup-agent']!;
    const composed = compose.services['backup-agent']!;
    expect(agent.user).toBe('postgres');
    expect(agent.volumes).toEqual(composed.volumes!.filter((volume) => !volume.startsWith('backups:')));
    expect(agent.deploy?.placement?.constraints).toEqual(postgres.deploy?.placement?.constraints);
    // Machines share no volume: the backups go to S3 (the stand-in object store), where the API reads them too.
    expect(withDefaults(agent.environment!.BACKUP_STORE!)).toMatch(/^s3:\/\//);
    expect(agent.environment!.BACKUP_STORE).toBe(services.api!.environment!.BACKUP_STORE);
    expect(agent.environment!.S3_ENDPOINT).toBe(services.api!.environment!.S3_ENDPOINT);
    expect(agent.environment!.BACKUP_KEY_FILE).toBe('/run/secrets/backup_key');
    expect(agent.environment!.BACKUP_PG_DATA_DIR).toBe(PG_DATA_DIR);
  });

  it('reaches every service by DNS round robin (no virtual IP: it needs IPVS) and the site on each machine’s own port', () => {
    for (const [name, service] of Object.entries(services)) expect([name, service.deploy?.endpoint_mode]).toEqual([name, 'dnsrr']);
    const shell = services[apps.HOST.folder]!;
    expect(shell.deploy?.mode).toBe('global');
    expect(shell.ports!.map((port) => [port.target, hostPort(port), port.mode])).toEqual([[8080, 8080, 'host']]);
    expect(Object.entries(services).filter(([, service]) => service.ports).map(([name]) => name)).toEqual([apps.HOST.folder]);
    expect(shell.environment!.API_UPSTREAMS).toBe('api:8080');
  });

  it('spreads the API over the machines and keeps the data services, with the only volumes, on the labelled one', () => {
    expect(services.api!.deploy?.placement?.preferences).toEqual([{ spread: 'node.id' }]);
    for (const [name, service] of Object.entries(services)) {
      const stateful = STATEFUL.includes(name);
      expect([name, Boolean(service.volumes?.length)]).toEqual([name, stateful]);
      expect([name, service.deploy?.placement?.constraints]).toEqual([name, stateful ? ['node.labels.agency.data == true'] : undefined]);
    }
  });

  it('updates every service by itself with a health-check gate and a rollback, starting the new task first where two can run at once', () => {
    for (const [name, service] of Object.entries(services)) {
      const update = service.deploy?.update_config;
      expect([name, update?.failure_action, update?.parallelism]).toEqual([name, 'rollback', 1]);
      // Two tasks on one volume, or on one machine's published port, cannot run at once.
      const startFirst = !STATEFUL.includes(name) && service.deploy?.mode !== 'global';
      expect([name, update?.order]).toEqual([name, startFirst ? 'start-first' : 'stop-first']);
      // A rollback goes to its end in the same order (Swarm's default would pause it at a slow task).
      const rollback = service.deploy?.rollback_config;
      expect([name, rollback?.order, rollback?.failure_action]).toEqual([name, update?.order, 'continue']);
    }
  });

  it('spares every app that publishes through the API from its health check until the API has had its time to start', () => {
    // Swarm has no depends_on: an app starts beside an API still starting, and is healthy only once
    // its build is published through it.
    const seconds = (duration = '0s') => Number(/^(\d+)([sm])$/.exec(duration)![1]) * (duration.endsWith('m') ? 60 : 1);
    const api = seconds(services.api!.healthcheck?.start_period);
    for (const folder of STATIC_APPS) {
      expect([folder, services[folder]!.environment!.RELEASE_API]).toEqual([folder, 'http://api:8080']);
      expect([folder, seconds(services[folder]!.healthcheck?.start_period) >= 2 * api]).toEqual([folder, true]);
    }
  });

  it('gives passwords, tokens and webhook secrets only as files of Docker secrets the service is given', () => {
    const declared = Object.keys(stack.secrets ?? {});
    for (const [name, service] of Object.entries(services)) {
      const environment = service.environment ?? {};
      expect([name, Object.keys(environment).filter((variable) => SECRET_VARIABLES.test(variable))]).toEqual([name, []]);
      for (const [variable, value] of Object.entries(environment).filter(([key]) => key.endsWith('_FILE'))) {
        const secret = /^\/run\/secrets\/([a-z0-9_]+)$/.exec(value)?.[1];
        expect([name, variable, secret !== undefined && (service.secrets ?? []).includes(secret) && declared.includes(secret)]).toEqual([name, variable, true]);
      }
    }
    for (const folder of STATIC_APPS) expect([folder, services[folder]!.environment!.RELEASE_TOKEN_FILE]).toEqual([folder, `/run/secrets/${RELEASE_NAMES[folder]}_release_token`]);
    for (const secret of Object.values(stack.secrets ?? {})) expect(secret).toEqual({ external: true });
  });
});

describe('docker-compose.dev.yml', () => {
  const { services } = readCompose('docker-compose.dev.yml');

  it('runs each app’s dev server with the source mounted, listening on every interface, on the ports of `npm run dev`', () => {
    for (const app of [apps.HOST, ...apps.REMOTES, apps.API]) {
      const service = services[app.folder]!;
      expect([app.folder, service.command]).toEqual([app.folder, ['npm', 'run', 'dev', '-w', app.folder]]);
      expect(service.volumes).toContain('.:/app');
      expect(service.ports!.map((mapping) => [mapping.target, hostPort(mapping)])).toEqual([[app.devPort, app.devPort]]);
      // The live-reload socket is opened on the port compose publishes, whatever it is set to.
      if (app !== apps.API) expect([app.folder, service.environment?.DEV_PUBLIC_PORT]).toEqual([app.folder, service.ports![0]!.published]);
      const listensEverywhere = app === apps.API ? service.environment?.HOST : service.environment?.DEV_HOST;
      expect([app.folder, listensEverywhere]).toEqual([app.folder, '0.0.0.0']);
      expect(service.depends_on?.install).toEqual({ condition: 'service_completed_successfully' });
    }
  });
});

describe.each([API_DOCKERFILE, STATIC_APP_DOCKERFILE])('%s', (file) => {
  const stages = readDockerfile(file);
  const final = stages.at(-1)!;
  /** The static apps' Dockerfile names its app by build arguments: read once for each app. */
  const builds = file === STATIC_APP_DOCKERFILE ? STATIC_APPS.map((folder) => staticAppBuildArgs(folder)) : [{}];
  const withArgs = (text: string, args: Record<string, string>) => text.replace(/\$\{(\w+)\}/g, (whole, name: string) => args[name] ?? whole);

  it('copies only files that exist in the repo', () => {
    for (const args of builds) {
      for (const stage of stages) {
        for (const { sources } of contextCopies(stage)) {
          for (const source of sources.map((each) => withArgs(each, args))) expect([source, fs.existsSync(path.join(ROOT, source))]).toEqual([source, true]);
        }
      }
    }
  });

  it('builds on a supported Node LTS (a line package.json\'s engines names) and runs as an unprivileged user, with a health check', () => {
    for (const stage of stages) {
      const node = /^node:(\d+)/.exec(stage.from);
      if (node) expect([stage.from, SUPPORTED_NODE_MAJORS.includes(Number(node[1]))]).toEqual([stage.from, true]);
    }
    const user = final.lines.filter((line) => line.startsWith('USER ')).at(-1);
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^USER (root|0)$/);
    expect(final.lines.some((line) => line.startsWith('HEALTHCHECK '))).toBe(true);
  });

  if (file === API_DOCKERFILE) {
    it('ships production dependencies only, and the blog’s articles', () => {
      expect(stages.some((stage) => stage.lines.some((line) => /npm ci --omit=dev/.test(line)))).toBe(true);
      expect(final.lines).toContain('COPY content content');
    });

    it('ends with the API’s stage, so a build without --target is the API, and builds the backup agent in a stage of its own', () => {
      expect(final.name).toBe('api');
      const agent = stages.find((stage) => stage.name === 'backup-agent')!;
      expect(agent.from).toMatch(/^postgres:/);
      expect(agent.lines.some((line) => line.startsWith('HEALTHCHECK '))).toBe(true);
      // Both write the shared backups volume, as different users; the key's volume is the agent's.
      const made = (stage: Stage) => stage.lines.filter((line) => line.startsWith('RUN ')).join(' ');
      for (const stage of [agent, final]) expect([stage.name, made(stage)]).toEqual([stage.name, expect.stringMatching(/chmod 1777 \/var\/lib\/agency\/backups\b/)]);
      expect(made(agent)).toMatch(/chown postgres:postgres \/var\/lib\/agency\/backup-key\b/);
    });
  } else {
    it('serves the app’s build with nginx and the repo’s configuration', () => {
      expect(contextCopies(final)).toEqual(
        expect.arrayContaining([
          { sources: [`${NGINX_COMMON_DIR}/`], target: `${NGINX_CONF_DIR}/` },
          { sources: [ENTRYPOINT], target: '/usr/local/bin/static-app-entrypoint' },
        ]),
      );
      // The build stage puts the app's build and its server block where the image wants them, copied as one.
      const own = stages[0]!.lines.find((line) => line.includes(SITE_TEMPLATE_NAME))!;
      expect(own).toContain('mv ${APP_FOLDER}/dist /image/srv/app');
      expect(own).toContain(`/image${NGINX_CONF_DIR}/${SITE_TEMPLATE_NAME}`);
      expect(final.lines).toContain('COPY --from=build /image/ /');
      const env = final.lines.find((line) => line.startsWith('ENV '));
      expect(env).toContain('APP_FOLDER=${APP_FOLDER}');
      // The name the release API knows the app by, and curl, with which the entrypoint publishes.
      expect(env).toContain('RELEASE_APP=${RELEASE_APP}');
      expect(final.lines.find((line) => line.startsWith('RUN apt-get'))).toMatch(/\bcurl\b/);
    });

    it('gives the shell its own server block and every remote the one they share', () => {
      // The build stage takes the app's own deploy/nginx-site.conf.template, else the remotes'.
      const choice = stages[0]!.lines.find((line) => line.includes(SITE_TEMPLATE_NAME))!;
      expect(choice).toContain('${APP_FOLDER}/deploy/nginx-site.conf.template');
      expect(choice).toContain(SITE_TEMPLATES.remote);
      for (const folder of STATIC_APPS) {
        const own = `${folder}/deploy/nginx-site.conf.template`;
        const taken = fs.existsSync(path.join(ROOT, own)) ? own : SITE_TEMPLATES.remote;
        expect([folder, taken]).toEqual([folder, folder === apps.HOST.folder ? SITE_TEMPLATES.shell : SITE_TEMPLATES.remote]);
      }
    });

    it('declares the app only after the layers every app shares, so that they are built once', () => {
      for (const stage of stages) {
        const firstArg = stage.lines.findIndex((line) => line.startsWith('ARG '));
        expect(stage.lines.slice(0, firstArg < 0 ? undefined : firstArg).filter((line) => line.includes('${'))).toEqual([]);
      }
      expect(final.lines.findIndex((line) => line.startsWith('RUN apt-get'))).toBeLessThan(final.lines.findIndex((line) => line.startsWith('ARG ')));
    });
  }
});

describe('the nginx templates', () => {
  const entrypoint = fs.readFileSync(path.join(ROOT, ENTRYPOINT), 'utf8');
  const known = /^VARIABLES="([^"]+)"/m.exec(entrypoint)![1]!.split(' ');
  const templates = [
    ...fs.readdirSync(path.join(ROOT, NGINX_COMMON_DIR)).map((name) => path.join(NGINX_COMMON_DIR, name)),
    ...Object.values(SITE_TEMPLATES),
  ];

  it.each(templates)('%s uses only variables the entrypoint fills in', (file) => {
    const used = [...fs.readFileSync(path.join(ROOT, file), 'utf8').matchAll(/\$\{([A-Z_]+)\}/g)].map((match) => match[1]);
    for (const name of used) expect([name, known.includes(name!)]).toEqual([name, true]);
  });
});

it('.dockerignore keeps installed packages, builds, data and git history out of every build', () => {
  const ignored = fs.readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n');
  expect(ignored).toEqual(expect.arrayContaining(['**/node_modules', '**/dist', 'data', '.git']));
});
