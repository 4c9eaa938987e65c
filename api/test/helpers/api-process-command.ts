import path from 'node:path';

export const API_DIR = path.resolve(__dirname, '../..');

/**
 * How production runs an entry point of the API named by its source (`src/delivery/cli/release.ts`): this
 * Node on its compiled file in `dist/`, in the API's folder, as its npm scripts do. Kept apart from
 * server-process.ts, which the browser suites do not load (it brings the whole app with it).
 */
export function apiProcessCommand(entry: string, args: string[]): { command: string; args: string[]; cwd: string } {
  const compiled = entry.replace(/^src\//, 'dist/').replace(/\.ts$/, '.js');
  return { command: process.execPath, args: [path.join(API_DIR, compiled), ...args], cwd: API_DIR };
}
