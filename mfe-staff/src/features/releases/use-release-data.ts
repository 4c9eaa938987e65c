import type { StaffReleaseDetail, StaffReleases } from '@agency/shared';
import { useLoaded, type Loaded } from '../../shared/api/use-loaded';
import { fetchReleaseDetail, fetchReleases } from './release-requests';

/** Every app's releases, and the apps the member may act on. */
export function useReleaseOverview(): Loaded<StaffReleases> {
  return useLoaded(fetchReleases, 'overview');
}

/** One app's releases and health over `since`; nothing is asked without an app. */
export function useReleaseDetail(app: string, since: string): Loaded<StaffReleaseDetail> {
  return useLoaded(() => fetchReleaseDetail(app, since), `${app}\n${since}`);
}
