import { APP_NAMES } from '@agency/shared';

/**
 * A release manager's apps as staff_members.release_apps and staff_invitations.release_apps hold
 * them: a JSON array of app names, written in APP_NAMES order so every reader lists them alike.
 */
export function writeReleaseApps(apps: readonly string[]): string {
  return JSON.stringify(APP_NAMES.filter((app) => apps.includes(app)));
}

export function readReleaseApps(column: string): string[] {
  const apps: unknown = JSON.parse(column);
  return Array.isArray(apps) ? apps.filter((app): app is string => typeof app === 'string') : [];
}
