import { FOLLOW_UP_LIMITS, kyivDayOf, kyivInstant, kyivWeekday, nextKyivDay, type ResponseReport } from '@agency/shared';
import type { Db } from '../../platform/db/connection';

/**
 * How fast the agency answers: time to first response (working minutes) by Kyiv week and by the
 * member who responded, the leads still overdue, and the period's leads won by source. Spam is
 * left out. The waits were counted as each response was given, so the report reads them as stored.
 */

/** The value at `p` (0–1) of sorted values, nearest rank. */
function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

/** The instant the Kyiv week (from Monday) holding `instant` begins. */
function weekStart(instant: number): number {
  const day = kyivDayOf(instant);
  return kyivInstant(nextKyivDay(day, -((kyivWeekday(day) + 6) % 7)));
}

interface Group {
  leads: number;
  waits: number[];
  overdue: number;
}

const times = (group: Group) => {
  const sorted = [...group.waits].sort((a, b) => a - b);
  return { leads: group.leads, answered: sorted.length, medianMinutes: percentile(sorted, 0.5), p90Minutes: percentile(sorted, 0.9) };
};

export async function responseReport(db: Db, { weeks = FOLLOW_UP_LIMITS.reportWeeksDefault, targetMinutes, now = new Date() }: { weeks?: number; targetMinutes: number; now?: Date }): Promise<ResponseReport> {
  const from = weekStart(now.getTime() - (weeks - 1) * 7 * 86_400_000);
  const since = new Date(from).toISOString();
  const rows = await db.kysely
    .selectFrom('leads')
    .leftJoin('staff_members', 'staff_members.id', 'leads.first_response_by')
    .select(['leads.received_at', 'leads.status', 'leads.source', 'leads.first_response_minutes', 'leads.overdue_at', 'leads.first_response_at', 'staff_members.email'])
    .where('leads.received_at', '>=', since)
    .where('leads.status', '!=', 'spam')
    .execute();

  const byWeek = new Map<number, Group>();
  const byPerson = new Map<string, Group>();
  const bySource = new Map<string, { leads: number; won: number }>();
  for (let start = from; start <= now.getTime(); start = weekStart(start + 8 * 86_400_000)) byWeek.set(start, { leads: 0, waits: [], overdue: 0 });
  for (const row of rows) {
    const week = byWeek.get(weekStart(Date.parse(row.received_at)));
    const answered = row.first_response_at !== null && row.first_response_minutes !== null;
    if (week) {
      week.leads += 1;
      if (answered) week.waits.push(Number(row.first_response_minutes));
      else if (row.overdue_at !== null && row.status === 'new') week.overdue += 1;
    }
    if (answered && row.email) {
      const person = byPerson.get(row.email) ?? { leads: 0, waits: [], overdue: 0 };
      person.leads += 1;
      person.waits.push(Number(row.first_response_minutes));
      byPerson.set(row.email, person);
    }
    const source = bySource.get(row.source) ?? { leads: 0, won: 0 };
    source.leads += 1;
    if (row.status === 'won') source.won += 1;
    bySource.set(row.source, source);
  }
  return {
    targetMinutes,
    weeks: [...byWeek.entries()].sort(([a], [b]) => b - a).map(([start, group]) => ({ weekStart: new Date(start).toISOString(), ...times(group), overdue: group.overdue })),
    people: [...byPerson.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([member, group]) => ({ member, ...times(group) })),
    sources: [...bySource.entries()].sort(([, a], [, b]) => b.won - a.won || b.leads - a.leads).map(([source, counts]) => ({ source, ...counts })),
  };
}
