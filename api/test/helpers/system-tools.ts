import { spawnSync } from 'node:child_process';

/** Debian programs some suites run for real, and the package that brings each. */
export const SYSTEM_TOOLS = {
  'redis-server': 'redis-server',
  nginx: 'nginx libnginx-mod-http-brotli-static',
  envsubst: 'gettext-base',
  // util-linux's, to run a command on a terminal; essential in Debian, so always there.
  script: 'bsdutils',
} as const;

type Tool = keyof typeof SYSTEM_TOOLS;

/** Also looks in /usr/sbin, where Debian puts nginx, which a non-root PATH may lack. */
export function hasTool(tool: Tool): boolean {
  return spawnSync('sh', ['-c', `command -v ${tool} || test -x /usr/sbin/${tool}`], { stdio: 'ignore' }).status === 0;
}

/**
 * `describe` when the programs are installed. Without them the block is skipped with a loud
 * warning on a developer's machine (as the browser suite is without Chromium), and fails under CI,
 * which installs them (.ci/run).
 */
export function describeWithTools(...tools: Tool[]): jest.Describe {
  const missing = tools.filter((tool) => !hasTool(tool));
  if (missing.length === 0 || process.env.CI) return describe;
  const install = missing.map((tool) => SYSTEM_TOOLS[tool]).join(' ');
  console.warn(`\n!! SKIPPED: needs ${missing.join(', ')} (apt-get install -y ${install}).\n`);
  return describe.skip;
}
