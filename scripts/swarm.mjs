// `npm run swarm -- <command>`: the site on a Docker Swarm (docker-stack.yml; docs/operations.md,
// "Several machines"). Docker commands for the swarm go to SWARM_HOST (a manager: `ssh://user@host`,
// `tcp://…`), or to this machine's engine when it is a manager; images are built on this machine.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { HOST, API, REMOTES } = require('../shared/webpack/apps.js');
const { STATIC_APP_DOCKERFILE, staticAppBuildArgs } = require('../shared/deploy/static-app-image.js');

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STACK_FILE = 'docker-stack.yml';
const stack = process.env.STACK?.trim() || 'agency';
const tag = process.env.TAG?.trim() || 'latest';

const USAGE = `Usage: npm run swarm -- <command>
  push                 build every image (the API's, the backup agent's, each static app's and the stand-in
                       object store) and push it to REGISTRY as :TAG (default latest)
  deploy               create the missing secrets, then deploy docker-stack.yml as STACK (default agency)
  release <folder>     build one app's image (shell, mfe-home, mfe-blog, mfe-forms, mfe-staff, api), push it under a
                       tag of its own and roll its service to it, alone (rolled back by Swarm if unhealthy)
  scale api=<n>        run n API tasks
  status               the stack's services and where their tasks run
  remove               remove the stack (its volumes stay on their machines)
Environment: REGISTRY (as the machines pull from it), PUSH_REGISTRY (as this machine pushes to it,
when that differs), SWARM_HOST, SITE_URL, STACK, TAG, POSTGRES_IMAGE (the database's image, which the
backup agent is built on too); secrets' values in docs/operations.md.`;

/** Every image the stack runs from REGISTRY: each app (the static apps from one Dockerfile, the API from its own). */
const STATIC_APP_FOLDERS = [HOST.folder, ...REMOTES.map((remote) => remote.folder)];
const APP_FOLDERS = [...STATIC_APP_FOLDERS, API.folder];
const OBJECT_STORE = { name: 'object-store', dockerfile: 'swarm/object-store/Dockerfile', context: 'swarm/object-store' };
/** PostgreSQL's backup agent: a stage of the API's Dockerfile, built on the database's own image. */
const BACKUP_AGENT = { name: 'backup-agent', dockerfile: `${API.folder}/Dockerfile`, target: 'backup-agent' };
/** The prefix of the local images' names (`agency-build-api`…). */
const BUILD_PROJECT = 'agency-build';

function fail(message) {
  console.error(message);
  process.exit(1);
}

function required(name) {
  const value = process.env[name]?.trim();
  if (!value) fail(`${name} must be set.\n\n${USAGE}`);
  return value;
}

/** Runs a command with its output shown; fails the script when it fails. */
function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.status !== 0) fail(`${command} ${args.join(' ')} failed`);
  return result;
}

/** `docker` on the swarm's manager. */
function swarm(args, options) {
  const host = process.env.SWARM_HOST?.trim();
  return run('docker', [...(host ? ['--host', host] : []), ...args], options);
}

function swarmOutput(args) {
  const host = process.env.SWARM_HOST?.trim();
  const result = spawnSync('docker', [...(host ? ['--host', host] : []), ...args], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) fail(`docker ${args.join(' ')} failed: ${result.stderr.trim()}`);
  return result.stdout;
}

const imageName = (registry, name, imageTag) => `${registry}/agency-${name}:${imageTag}`;

/**
 * Builds the given app folders (and the object store and the backup agent) on this machine, one after the other, with
 * the classic builder, as the compose suite does, so that both share one build cache; returns
 * their local image names. (When each static app had a Dockerfile of its own, Docker 20.10's
 * BuildKit, which syncs a Dockerfile incrementally by name, size and modification time, took
 * mfe-blog/Dockerfile for mfe-home/Dockerfile and built the blog's image from the home's.)
 */
function build(folders, withDataServices) {
  const classic = { env: { ...process.env, DOCKER_BUILDKIT: '0' } };
  const built = {};
  for (const folder of folders) {
    built[folder] = `${BUILD_PROJECT}-${folder}`;
    const file = STATIC_APP_FOLDERS.includes(folder)
      ? [STATIC_APP_DOCKERFILE, ...Object.entries(staticAppBuildArgs(folder)).flatMap(([name, value]) => ['--build-arg', `${name}=${value}`])]
      : [`${folder}/Dockerfile`];
    run('docker', ['build', '--quiet', '--tag', built[folder], '--file', ...file, '.'], classic);
  }
  if (withDataServices) {
    built[OBJECT_STORE.name] = `${BUILD_PROJECT}-${OBJECT_STORE.name}`;
    run('docker', ['build', '--quiet', '--tag', built[OBJECT_STORE.name], '--file', OBJECT_STORE.dockerfile, OBJECT_STORE.context], classic);
    // On the image the stack's postgres runs, when another than the Dockerfile's default is named:
    // the agent reads its data directory as its user and drills with its binaries.
    const postgresImage = process.env.POSTGRES_IMAGE?.trim();
    built[BACKUP_AGENT.name] = `${BUILD_PROJECT}-${BACKUP_AGENT.name}`;
    run('docker', [
      'build', '--quiet', '--tag', built[BACKUP_AGENT.name], '--file', BACKUP_AGENT.dockerfile, '--target', BACKUP_AGENT.target,
      ...(postgresImage ? ['--build-arg', `POSTGRES_IMAGE=${postgresImage}`] : []), '.',
    ], classic);
  }
  return built;
}

function push(built, imageTag) {
  const registry = process.env.PUSH_REGISTRY?.trim() || required('REGISTRY');
  for (const [name, local] of Object.entries(built)) {
    for (const pushedTag of new Set([imageTag, tag])) {
      const remote = imageName(registry, name, pushedTag);
      run('docker', ['tag', local, remote]);
      run('docker', ['push', '--quiet', remote]);
    }
  }
}

/** What each secret holds: given in the environment, or made here (tokens), or blank (a channel off). */
function secretValues() {
  const token = () => randomBytes(32).toString('hex');
  const apps = [HOST, ...REMOTES].map((app) => ({
    id: app === HOST ? 'shell' : app.id,
    token: process.env[`${app.folder.toUpperCase().replace(/-/g, '_')}_RELEASE_TOKEN`]?.trim() || token(),
  }));
  return {
    db_password: process.env.DATABASE_PASSWORD?.trim() || token(),
    // The stand-in object store accepts only these; a real S3 gets its own keys.
    s3_access_key_id: process.env.AWS_ACCESS_KEY_ID?.trim() || 'S3RVER',
    s3_secret_access_key: process.env.AWS_SECRET_ACCESS_KEY?.trim() || 'S3RVER',
    release_tokens: apps.map((app) => `${app.id}-swarm=${app.id}:${app.token}`).join(' '),
    ...Object.fromEntries(apps.map((app) => [`${app.id}_release_token`, app.token])),
    leads_webhook_secret: process.env.LEADS_WEBHOOK_SECRET?.trim() ?? '',
    ops_webhook_secret: process.env.OPS_WEBHOOK_SECRET?.trim() ?? '',
    // Blank: the backup agent makes a key in its volume on the data machine (docs/operations.md).
    backup_key: process.env.BACKUP_KEY?.trim() ?? '',
    telegram_bot_token: process.env.TELEGRAM_BOT_TOKEN?.trim() ?? '',
    smtp_url: process.env.SMTP_URL?.trim() ?? '',
    metrics_token: process.env.METRICS_TOKEN?.trim() ?? '',
  };
}

/**
 * Creates each secret the stack names that the swarm does not hold yet. A secret is never
 * changed in place (Swarm's are immutable): rotating one is documented in docs/operations.md.
 * The release tokens are made together, so the API's list and each app's token agree.
 */
function createSecrets() {
  const existing = new Set(swarmOutput(['secret', 'ls', '--format', '{{.Name}}']).split('\n').filter(Boolean));
  const values = secretValues();
  const tokenSecrets = Object.keys(values).filter((name) => name.endsWith('release_token') || name === 'release_tokens');
  const someTokens = tokenSecrets.filter((name) => existing.has(name));
  if (someTokens.length > 0 && someTokens.length < tokenSecrets.length) {
    fail(`Only some release token secrets exist (${someTokens.join(', ')}): remove them all or create the rest by hand.`);
  }
  for (const [name, value] of Object.entries(values)) {
    if (existing.has(name)) continue;
    // Docker refuses an empty secret: a line break alone reads as blank (the channel off).
    swarm(['secret', 'create', name, '-'], { input: `${value}\n`, stdio: ['pipe', 'ignore', 'inherit'] });
    console.log(`secret ${name} created${value ? '' : ' (blank)'}`);
  }
}

function deploy() {
  required('REGISTRY');
  required('SITE_URL');
  const labelled = swarmOutput(['node', 'ls', '--filter', 'node.label=agency.data=true', '--format', '{{.Hostname}}']).trim();
  if (!labelled) {
    fail('No machine is labelled for the database and the object store: docker node update --label-add agency.data=true <machine>');
  }
  createSecrets();
  // Images pinned by digest (resolved on the manager), so every machine runs the same bytes.
  swarm(['stack', 'deploy', '--prune', '--resolve-image', 'always', '--compose-file', STACK_FILE, stack]);
}

function release(folder) {
  if (!APP_FOLDERS.includes(folder)) fail(`release: the folder must be one of ${APP_FOLDERS.join(', ')}, got "${folder ?? ''}"`);
  const registry = required('REGISTRY');
  const releaseTag = `${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '')}-${randomBytes(3).toString('hex')}`;
  push(build([folder], false), releaseTag);
  // Waits until the service converged; a task that fails its health check rolls it back (non-zero exit).
  swarm(['service', 'update', '--detach=false', '--image', imageName(registry, folder, releaseTag), `${stack}_${folder}`]);
}

const [command, ...args] = process.argv.slice(2);
switch (command) {
  case 'push':
    push(build(APP_FOLDERS, true), tag);
    break;
  case 'deploy':
    deploy();
    break;
  case 'release':
    release(args[0]);
    break;
  case 'scale': {
    const match = /^api=(\d+)$/.exec(args[0] ?? '');
    if (!match) fail(`scale: write api=<number of tasks>, got "${args[0] ?? ''}"`);
    swarm(['service', 'scale', '--detach=false', `${stack}_api=${match[1]}`]);
    break;
  }
  case 'status':
    swarm(['stack', 'services', stack]);
    swarm(['stack', 'ps', '--filter', 'desired-state=running', '--format', 'table {{.Name}}\t{{.Node}}\t{{.CurrentState}}', stack]);
    break;
  case 'remove':
    swarm(['stack', 'rm', stack]);
    break;
  default:
    console.log(USAGE);
    process.exit(command === undefined || command === '--help' ? 0 : 1);
}
