import { useEffect, useRef } from 'react';
import { STAFF_LIMITS, type LeadFilter, type LeadPage, type LeadSummary } from '@agency/shared';
import { staffGet } from '../../shared/api/staff-api';

/**
 * Asks every STAFF_LIMITS.pollSeconds for leads newer than the newest shown (`newestId`) under
 * the same filter, and hands them over. Polling (not a held connection) passes every proxy and
 * reaches any API process; it goes on in a hidden tab, where the count in the title matters most.
 */
export function useNewLeads(filter: LeadFilter, newestId: number | undefined, onArrived: (leads: LeadSummary[]) => void): void {
  const latest = useRef({ filter, newestId, onArrived });
  latest.current = { filter, newestId, onArrived };
  useEffect(() => {
    let stopped = false;
    const timer = window.setInterval(() => {
      const { filter: current, newestId: after, onArrived: deliver } = latest.current;
      if (after === undefined) return;
      staffGet<LeadPage>('/leads', { ...current, after: String(after) }).then(
        (page) => {
          if (!stopped && page.leads.length > 0) deliver(page.leads);
        },
        () => undefined,
      );
    }, STAFF_LIMITS.pollSeconds * 1000);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, []);
}
