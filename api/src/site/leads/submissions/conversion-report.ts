import { conversionRate, trafficSource, type TrafficSource } from '@agency/shared';
import type { Db } from '../../../platform/db/connection';
import { listLeadAttributions } from './submissions-repository';
import { toMinute } from '../../../platform/lib/minutes';

/**
 * Conversion by source: per source, medium and campaign, the browser sessions the page-view
 * beacon counted and the leads sent, from a day on. A lead counts under the source its own
 * attribution names (the same derivation as the session's: trafficSource), so the two sides meet
 * without any id linking a lead to a visit.
 */

export interface ConversionRow extends TrafficSource {
  sessions: number;
  contact: number;
  applications: number;
  /** Leads of both kinds per session; null for a source with leads but no counted session. */
  conversion_rate: number | null;
}

export interface ConversionReport {
  /** The first day counted (UTC), `YYYY-MM-DD`. */
  since: string;
  rows: ConversionRow[];
}

function rowKey({ source, medium, campaign }: TrafficSource): string {
  return JSON.stringify([source, medium, campaign]);
}

/**
 * Sums sessions and leads per traffic source: the most sessions first, then the most leads, then
 * by name.
 */
export function combineConversion(
  sessions: readonly (TrafficSource & { sessions: number })[],
  leads: { contact: readonly TrafficSource[]; applications: readonly TrafficSource[] },
): ConversionRow[] {
  const rows = new Map<string, ConversionRow>();
  const rowOf = (source: TrafficSource) => {
    const key = rowKey(source);
    let row = rows.get(key);
    if (!row) {
      row = { source: source.source, medium: source.medium, campaign: source.campaign, sessions: 0, contact: 0, applications: 0, conversion_rate: null };
      rows.set(key, row);
    }
    return row;
  };
  for (const counted of sessions) rowOf(counted).sessions += counted.sessions;
  for (const source of leads.contact) rowOf(source).contact += 1;
  for (const source of leads.applications) rowOf(source).applications += 1;
  const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...rows.values()]
    .map((row) => ({ ...row, conversion_rate: conversionRate(row.contact + row.applications, row.sessions) }))
    .sort(
      (a, b) =>
        b.sessions - a.sessions ||
        b.contact + b.applications - (a.contact + a.applications) ||
        compare(a.source, b.source) ||
        compare(a.medium, b.medium) ||
        compare(a.campaign, b.campaign),
    );
}

/** The report from `since` (a UTC midnight) to now. */
export async function conversionReport(db: Db, since: Date): Promise<ConversionReport> {
  const [sessions, contact, applications] = await Promise.all([
    db.kysely
      .selectFrom('visit_sessions')
      .select((eb) => ['source', 'medium', 'campaign', eb.fn.countAll().as('sessions')])
      .where('first_minute', '>=', toMinute(since.getTime()))
      .groupBy(['source', 'medium', 'campaign'])
      .execute(),
    listLeadAttributions(db, 'contact', since),
    listLeadAttributions(db, 'applications', since),
  ]);
  return {
    since: since.toISOString().slice(0, 10),
    rows: combineConversion(
      sessions.map((row) => ({ ...row, sessions: db.dialect.readCount(row.sessions) })),
      { contact: contact.map(trafficSource), applications: applications.map(trafficSource) },
    ),
  };
}
