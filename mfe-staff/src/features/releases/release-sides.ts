import type { ReleaseStatusEntry, StaffReleaseDetail } from '@agency/shared';
import { shareText } from './release-format';

/** One release compared on the screen, with what it is to visitors. */
export interface Side {
  entry: ReleaseStatusEntry;
  /** «Кандидат (10 %)», «Поточний», «Попередній». */
  title: string;
}

/**
 * The two releases «Релізи» compares side by side: a canary's candidate and the current release
 * while one runs, else the current release and the previous one (what a rollback returns to).
 */
export function sidesOf({ status, state }: Pick<StaffReleaseDetail, 'status' | 'state'>): Side[] {
  const byId = (id: string | undefined) => status.releases.find((entry) => entry.id === id);
  const current = status.releases.find((entry) => entry.current);
  const candidate = byId(state.candidate?.id);
  const previous = byId(state.previous?.id);
  const sides: Side[] = [];
  if (candidate) sides.push({ entry: candidate, title: `Кандидат (${shareText(candidate.share ?? state.candidate!.share)})` });
  if (current) sides.push({ entry: current, title: 'Поточний' });
  if (!candidate && previous) sides.push({ entry: previous, title: 'Попередній' });
  return sides;
}
