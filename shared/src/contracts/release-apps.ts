import { APP_NAMES } from './app-names';
import type { StaffRole } from './staff-constants';

/**
 * Which apps a member may change the releases of, as an invitation or a role change names them:
 * a release manager one or more apps of the site, each once; every other role none. The API
 * refuses what this refuses, with its message; the CLI and the console say the same.
 */
export function releaseAppsProblem(role: StaffRole, apps: readonly string[]): string | undefined {
  if (role !== 'release_manager') return apps.length > 0 ? 'Застосунки призначають лише менеджерам релізів' : undefined;
  if (apps.length === 0) return 'Виберіть щонайменше один застосунок, релізами якого керуватиме менеджер релізів';
  const unknown = apps.find((app) => !APP_NAMES.includes(app));
  if (unknown !== undefined) return `Невідомий застосунок «${unknown}»: можна ${APP_NAMES.join(', ')}`;
  const twice = apps.find((app, index) => apps.indexOf(app) !== index);
  if (twice !== undefined) return `Застосунок «${twice}» названо двічі`;
  return undefined;
}
