import type { ReleaseStatus } from '../status/release-status';
import { inertText } from '../../platform/cli/terminal-text';

const ms = (value: number | null) => (value === null ? '–' : `${value} ms`);

/** The report as people read it in a terminal. */
export function formatReleaseStatus(status: ReleaseStatus): string[] {
  const lines = [`${status.app}: what visitors' browsers reported since ${status.since.replace('T', ' ').replace(/:00\.000Z$/, ' UTC')}`];
  for (const release of status.releases) {
    const { vitals } = release;
    const rate = release.error_rate === null ? '' : ` (${release.error_rate} per page view)`;
    const role = release.current ? '  (current)' : release.candidate ? `  (candidate, ${release.share} % of visitors)` : '';
    lines.push(
      '',
      `${release.current ? '*' : release.candidate ? '~' : ' '} ${release.id}${role}`,
      `    page views ${release.page_views} · errors ${release.errors}${rate} · load failures ${release.load_failures} · load retries ${release.load_retries}`,
      `    p75: LCP ${ms(vitals.lcp_p75_ms)} · INP ${ms(vitals.inp_p75_ms)} · CLS ${vitals.cls_p75 ?? '–'} · FCP ${ms(vitals.fcp_p75_ms)} · TTFB ${ms(vitals.ttfb_p75_ms)}`,
    );
    const { clients } = release;
    if (release.served_page_views > 0 || Object.values(clients).some((count) => count > 0)) {
      lines.push(
        `    pages the server sent ${release.served_page_views} · while a canary judged it: ${release.judged_page_views} page views counted, ` +
          `distinct clients ${clients.served} sent pages, ${clients.error} reporting errors, ${clients.load_failure} load failures, ${clients.vitals} LCP or INP`,
      );
    }
    if (release.top_errors.length === 0) continue;
    lines.push('    top errors:');
    for (const error of release.top_errors) {
      lines.push(`      ${String(error.count).padStart(5)}× ${error.kind.padEnd(12)} ${inertText(error.message)}`);
      lines.push(`             at ${inertText(error.source ?? 'an unknown place (no source map for it)')}, on ${inertText(error.page)}`);
    }
  }
  if (status.canary) {
    const { canary } = status;
    const promotion = canary.promote_after === null ? 'by hand' : `after ${canary.promote_after} healthy page views`;
    lines.push(
      '',
      `Canary: ${canary.release} for ${canary.share} % of visitors since ${canary.since}, judged after ${canary.min_views} page views, promoted ${promotion}`,
      `  now: ${canary.verdict.action.replace('_', ' ')}: ${canary.verdict.reason}`,
    );
  }
  if (status.events.length > 0) {
    lines.push('', 'Decisions, oldest first:');
    for (const event of status.events) lines.push(`  ${event.at}  ${event.action.padEnd(11)}  ${event.release}  ${inertText(event.reason)}`);
  }
  return lines;
}
