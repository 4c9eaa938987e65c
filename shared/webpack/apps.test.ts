import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { BROWSER_APP_FOLDERS, HOST, API, REMOTES, WORKSPACES } = require('./apps.js');

const ROOT = path.resolve(__dirname, '../..');

describe('the registry of apps', () => {
  it('names folders that are npm workspaces, so a remote added there is installed, built and tested', () => {
    for (const folder of WORKSPACES as string[]) {
      const { name } = JSON.parse(readFileSync(path.join(ROOT, folder, 'package.json'), 'utf8')) as { name: string };
      const link = path.join(ROOT, 'node_modules', name);
      expect(existsSync(link) && realpathSync(link)).toBe(path.join(ROOT, folder));
    }
  });

  it('gives every app its own federation name and dev port', () => {
    const apps = [HOST, ...REMOTES] as { federationName: string; devPort: number }[];
    expect(new Set(apps.map((app) => app.federationName)).size).toBe(apps.length);
    const ports = [...apps.map((app) => app.devPort), API.devPort];
    expect(new Set(ports).size).toBe(ports.length);
  });

  it('lists the shell first among the browser apps, and every exposed file exists', () => {
    expect(BROWSER_APP_FOLDERS[0]).toBe(HOST.folder);
    for (const remote of REMOTES as { folder: string; exposes: Record<string, string> }[]) {
      for (const file of Object.values(remote.exposes)) expect(existsSync(path.join(ROOT, remote.folder, file))).toBe(true);
    }
  });
});
