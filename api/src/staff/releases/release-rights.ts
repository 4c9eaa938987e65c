import { APP_NAMES, mayActOnReleases, type TeamMember } from '@agency/shared';
import { ApiError } from '../../platform/http/api-error';
import { STAFF_MESSAGES } from '../common/staff-messages';

/** The apps `member` may change the releases of (APP_NAMES order): a release manager's own, nobody else's. */
export function appsToActOn(member: TeamMember): string[] {
  return APP_NAMES.filter((app) => mayActOnReleases(member, app));
}

/** A known app's name, else 404. */
export function knownApp(app: string): string {
  if (!APP_NAMES.includes(app)) throw new ApiError(404, 'NOT_FOUND', STAFF_MESSAGES.appNotFound);
  return app;
}

/**
 * Refuses (403, naming the app) a change of `app`'s releases by anyone but a release manager
 * given it: admins read «Релізи» and change nothing there; a release manager acts on their apps
 * only, as a team's release token does.
 */
export function checkMayAct(member: TeamMember, app: string): void {
  if (mayActOnReleases(member, app)) return;
  throw new ApiError(403, 'FORBIDDEN', member.role === 'release_manager' ? STAFF_MESSAGES.releasesNotYours(app) : STAFF_MESSAGES.releasesReadOnly(app));
}
