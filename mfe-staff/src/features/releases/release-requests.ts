import type { StaffCanaryBody, StaffPromoteBody, StaffReleaseChanged, StaffReleaseDetail, StaffReleases, StaffStageBody } from '@agency/shared';
import { staffGet, staffSend } from '../../shared/api/staff-api';

/** Every app's releases, and the apps the signed-in member may act on. */
export function fetchReleases(): Promise<StaffReleases> {
  return staffGet<StaffReleases>('/releases');
}

/** One app's releases and their health over the window `since` (`1h`, `7d`). */
export function fetchReleaseDetail(app: string, since: string): Promise<StaffReleaseDetail> {
  return staffGet<StaffReleaseDetail>(`/releases/${encodeURIComponent(app)}`, { since });
}

/** A change of an app's releases as «Релізи» sends it: each names the state it was decided on (`expect`). */
export type ReleaseChange =
  | ({ command: 'stage' } & StaffStageBody)
  | ({ command: 'canary' } & StaffCanaryBody)
  | ({ command: 'promote' } & StaffPromoteBody)
  | { command: 'rollback' | 'abort'; expect: StaffStageBody['expect'] };

/** Sends a change; a refusal rejects with the API's own message (409 when the state moved on). */
export function sendReleaseChange(app: string, { command, ...body }: ReleaseChange): Promise<StaffReleaseChanged> {
  return staffSend<StaffReleaseChanged>('post', `/releases/${encodeURIComponent(app)}/${command}`, body);
}
