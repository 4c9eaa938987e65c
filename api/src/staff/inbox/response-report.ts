import { FOLLOW_UP_LIMITS, kyivDayOf, kyivInstant, kyivWeekday, nextKyivDay, type ResponseReport } from '@agency/shared';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/connection';

/**
 * How fast the agency answers: time to first response (working minutes) by Kyiv week and by the
 * member who responded, the leads still overdue, and the period's leads won by source. Spam is
 * left out. The waits were counted as each response was given, so the report reads them as stored.
 * A year of a busy site is some 80,000 leads: each is read as one narrow row (numbers and flags,
 * the responder's id, not texts), and put in its week by arithmetic on the weeks' starts.
 */

const WEEK_MS = 7 * 86_400_000;

/** The value at `p` (0–1) of sorted values, nearest rank. */
function percentile(sorted: ArrayLike<number>, p: number): number | null {
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
  const sorted = Float64Array.from(group.waits).sort();
  return { leads: group.leads, answered: sorted.length, medianMinutes: percentile(sorted, 0.5), p90Minutes: percentile(sorted, 0.9) };
};

/** A lead's `flag`: won, or waiting for its first response past the target. */
const WON = 1;
const OVERDUE = 2;

export async function responseReport(db: Db, { weeks = FOLLOW_UP_LIMITS.reportWeeksDefault, targetMinutes, now = new Date() }: { weeks?: number; targetMinutes: number; now?: Date }): Promise<ResponseReport> {
  const from = weekStart(now.getTime() - (weeks - 1) * WEEK_MS);
  const starts: number[] = [];
  for (let start = from; start <= now.getTime(); start = weekStart(start + 8 * 86_400_000)) starts.push(start);
  const end = weekStart(starts[starts.length - 1]! + 8 * 86_400_000);
  const [rows, members] = await Promise.all([
    db.kysely
      .selectFrom('leads')
      .select([
        'leads.received_at',
        'leads.source',
        'leads.first_response_by',
        // A wait counts once the response is recorded.
        sql<number | string | null>`case when leads.first_response_at is not null then leads.first_response_minutes end`.as('minutes'),
        sql<number | string>`case when leads.status = 'won' then ${sql.lit(WON)} when leads.status = 'new' and leads.overdue_at is not null then ${sql.lit(OVERDUE)} else 0 end`.as('flag'),
      ])
      .where('leads.received_at', '>=', new Date(from).toISOString())
      .where('leads.status', '!=', 'spam')
      .execute(),
    db.kysely.selectFrom('staff_members').select(['id', 'email']).execute(),
  ]);
  const emails = new Map(members.map((member) => [Number(member.id), member.email]));

  const byWeek: Group[] = starts.map(() => ({ leads: 0, waits: [], overdue: 0 }));
  const byPerson = new Map<string, Group>();
  const bySource = new Map<string, { leads: number; won: number }>();
  for (const row of rows) {
    const at = Date.parse(row.received_at);
    // Weeks are 7 days give or take summer time's hour: the guess is one week off at most.
    let index = Math.min(starts.length - 1, Math.floor((at - from) / WEEK_MS));
    while (index + 1 < starts.length && at >= starts[index + 1]!) index += 1;
    while (index > 0 && at < starts[index]!) index -= 1;
    const week = at >= from && at < end ? byWeek[index] : undefined;
    const minutes = row.minutes === null ? null : Number(row.minutes);
    const flag = Number(row.flag);
    if (week) {
      week.leads += 1;
      if (minutes !== null) week.waits.push(minutes);
      else if (flag === OVERDUE) week.overdue += 1;
    }
    const email = row.first_response_by === null ? undefined : emails.get(Number(row.first_response_by));
    if (minutes !== null && email) {
      const person = byPerson.get(email) ?? { leads: 0, waits: [], overdue: 0 };
      person.leads += 1;
      person.waits.push(minutes);
      byPerson.set(email, person);
    }
    const source = bySource.get(row.source) ?? { leads: 0, won: 0 };
    source.leads += 1;
    if (flag === WON) source.won += 1;
    bySource.set(row.source, source);
  }
  return {
    targetMinutes,
    weeks: starts.map((start, index) => ({ weekStart: new Date(start).toISOString(), ...times(byWeek[index]!), overdue: byWeek[index]!.overdue })).reverse(),
    people: [...byPerson.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([member, group]) => ({ member, ...times(group) })),
    sources: [...bySource.entries()].sort(([, a], [, b]) => b.won - a.won || b.leads - a.leads).map(([source, counts]) => ({ source, ...counts })),
  };
}
