import type { StaffRelease, StaffReleaseApp } from '@agency/shared';

/** A kept release a change (or an override) may name, with what it is to visitors now. */
export interface ReleaseChoice {
  release: StaffRelease;
  /** «кандидат», «попередній», «підготовлений», «збережений». */
  role: string;
}

/** Every kept release of an app but the current one, each once: the candidate, the previous, the staged, the rest. */
export function releaseChoices(state: StaffReleaseApp): ReleaseChoice[] {
  const listed = [
    ...(state.candidate ? [{ release: state.candidate.release, role: 'кандидат' }] : []),
    ...(state.previous ? [{ release: state.previous, role: 'попередній' }] : []),
    ...state.staged.map((release) => ({ release, role: 'підготовлений' })),
    ...state.kept.map((release) => ({ release, role: 'збережений' })),
  ];
  return listed.filter((entry, index) => entry.release.id !== state.current?.id && listed.findIndex((other) => other.release.id === entry.release.id) === index);
}
