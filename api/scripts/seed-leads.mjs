// Many leads at once for the benchmarks (bench:staff, bench:retention): both kinds, Ukrainian names
// and messages, sources and statuses, indexed for the inbox's search as the API indexes them, and
// optionally each with a delivered webhook notification, and the work after they arrived (people
// who wrote again, first responses, overdue marks). The same leads every run (a seeded
// pseudo-random sequence). Loads the API's compiled modules from api/dist (build first).
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPO_ROOT = path.resolve(API_DIR, '..');

/** A module of the API's build (`api/dist/<file>`). */
export const loadApiModule = (file) => import(pathToFileURL(path.join(API_DIR, 'dist', file)).href);

/** Compiles the shared package and the API (what the benchmarks load and run). */
export function buildApi() {
  for (const project of ['shared/tsconfig.build.json', 'api/tsconfig.build.json']) {
    const result = spawnSync(process.execPath, [path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', project], { cwd: REPO_ROOT, stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`build of ${project} failed`);
  }
}

const FIRST_NAMES = ['Олена', 'Андрій', 'Марта', 'Тарас', 'Ірина', 'Богдан', 'Соломія', 'Дмитро', 'Наталія', 'Остап', 'Юлія', 'Василь'];
const LAST_NAMES = ['Петренко', 'Коваль', 'Шевчук', 'Бондаренко', 'Ткаченко', 'Мельник', 'Кравець', 'Лисенко', 'Гнатюк', 'Савчук', 'Романюк', 'Олійник'];
const WORDS = ['реклама', 'кавʼярня', 'instagram', 'таргет', 'сайт', 'аналітика', 'ресторан', 'магазин', 'лідогенерація', 'контент', 'бюджет', 'запуск', 'весна', 'акція'];
const SOURCES = ['google', 'facebook', 'instagram', 'newsletter', 'linkedin', '', '', ''];
const SERVICES = ['smm', 'content', 'leads', 'analytics', ''];
export const ALL_STATUSES = ['new', 'new', 'in_progress', 'won', 'lost', 'spam'];

/** A deterministic pseudo-random sequence, so every run seeds the same leads. */
function random(seed) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/**
 * Which leads (by their number in arrival order) are one person's: for each, the number of its
 * person's first lead, or -1 for a lead of nobody else's. About `share` of the leads belong to a
 * person of 2–4 leads, who writes again within days, now and then weeks later, always inside the
 * 90 days the API links leads over.
 */
function planPeople(count, share, spanDays, next) {
  const firstOf = new Int32Array(count).fill(-1);
  // A person has 3 leads on average: of the leads not yet taken, this many start one.
  const startChance = share / (3 - 2 * share);
  const perDay = count / spanDays;
  for (let n = 0; n < count; n += 1) {
    if (firstOf[n] !== -1 || next() >= startChance) continue;
    const later = [];
    const more = 1 + Math.floor(next() * 3);
    for (let i = 0, at = n; i < more; i += 1) {
      at += Math.max(1, Math.round(60 * next() ** 3 * perDay));
      while (at < count && firstOf[at] !== -1) at += 1;
      if (at >= count) break;
      later.push(at);
    }
    if (later.length === 0) continue;
    firstOf[n] = n;
    for (const at of later) firstOf[at] = n;
  }
  return firstOf;
}

/**
 * The work on a lead as the API records it: its first response (nearly every lead staff moved on
 * from «new», a few «new» ones answered with a note), after 5–600 working minutes (half within
 * about 80), by one of `responders`, and the overdue mark of a lead that waited past the target
 * (answered late, or still waiting). Spam is not answered.
 */
function followUpOf(status, at, now, responders, next, working) {
  const none = { first_response_at: null, first_response_by: null, first_response_minutes: null, overdue_at: null };
  if (status === 'spam') return none;
  const answered = next() < (status === 'new' ? 0.15 : 0.95);
  const minutes = 5 + Math.round(595 * next() ** 3);
  const by = responders[Math.floor(next() * responders.length)];
  const due = working.addWorkingMs(at, working.targetMinutes * 60_000);
  // The overdue check runs each minute.
  const overdueAt = new Date(due.getTime() + Math.floor(next() * 60_000));
  const responseAt = new Date(working.addWorkingMs(at, minutes * 60_000).getTime() + Math.floor(next() * 60_000));
  if (answered && responseAt <= now) {
    const late = minutes >= working.targetMinutes && overdueAt < responseAt;
    return { first_response_at: responseAt.toISOString(), first_response_by: by, first_response_minutes: minutes, overdue_at: late ? overdueAt.toISOString() : null };
  }
  // Still waiting: a lead moved on from «new» without an answer was worked before responses were counted.
  return { ...none, overdue_at: status === 'new' && overdueAt <= now ? overdueAt.toISOString() : null };
}

/**
 * Seeds `count` leads into the (migrated) database at `databaseUrl`, arriving evenly over `from`
 * to `to`, in batches of 1000, and analyzes it. `lastActivity(arrival)` dates each lead's last work
 * (what retention counts from); `withNotifications` adds one delivered webhook row per lead.
 * `people` is the share of leads that belong to a person of several leads (their submissions
 * share the person's name, phone and mostly the e-mail; `person_id` is the first lead's id);
 * `responders` (staff member ids) gives leads first responses and overdue marks as of `to`
 * (none without). Resolves to the seconds it took.
 */
export async function seedLeads(databaseUrl, { count, from, to, statuses = ALL_STATUSES, lastActivity = (arrival) => arrival, withNotifications = false, people = 0, responders = [] }) {
  const { createDatabase } = await loadApiModule('platform/db/connection.js');
  const { migrateToLatest } = await loadApiModule('platform/db/migrate.js');
  const { leadSearchText } = await loadApiModule('site/leads/lead/lead-index.js');
  const { addWorkingMs, FOLLOW_UP_LIMITS } = await import('@agency/shared');
  const { sql } = await import('kysely');
  const db = createDatabase(databaseUrl, { poolSize: 2 });
  await migrateToLatest(db);
  const next = random(42);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const span = to.getTime() - from.getTime();
  // The work after arrival draws from a sequence of its own: the leads themselves stay as they were.
  const nextWork = random(7);
  const firstOf = people > 0 ? planPeople(count, people, span / 86_400_000, nextWork) : new Int32Array(count).fill(-1);
  /** Each person's first lead: its id once stored, and who wrote it. */
  const persons = new Map();
  const working = { addWorkingMs, targetMinutes: FOLLOW_UP_LIMITS.defaultTargetMinutes };
  const started = performance.now();
  for (let offset = 0; offset < count; offset += 1000) {
    const size = Math.min(1000, count - offset);
    await db.kysely.transaction().execute(async (trx) => {
      const rows = Array.from({ length: size }, (_, index) => {
        const n = offset + index;
        const name = `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)}`;
        const kind = n % 4 === 3 ? 'applications' : 'contact';
        const at = new Date(from.getTime() + (span * n) / count);
        const phone = `+380 67 ${String(1_000_000 + n).slice(-7).replace(/(\d{3})(\d{2})(\d{2})/, '$1 $2 $3')}`;
        const email = `lead${n}@example.com`;
        const text = Array.from({ length: 12 }, () => pick(WORDS)).join(' ');
        const row = { n, kind, at, name, phone, email, text, source: pick(SOURCES), status: pick(statuses) };
        if (firstOf[n] === n) persons.set(n, { name, phone, email, id: undefined });
        else if (firstOf[n] !== -1) {
          // The same person writes again: their name and phone, and mostly their e-mail (the API links by either).
          const first = persons.get(firstOf[n]);
          Object.assign(row, { name: first.name, phone: first.phone, email: nextWork() < 0.7 ? first.email : row.email });
        }
        return row;
      });
      const contact = rows.filter((row) => row.kind === 'contact');
      const applications = rows.filter((row) => row.kind === 'applications');
      const timestamp = (date) => db.dialect.timestamp(date);
      const contactIds = contact.length
        ? await trx
            .insertInto('contact_messages')
            .values(contact.map((row) => ({ name: row.name, email: row.email, phone: row.phone, company: 'ТОВ «Бенч»', service_type: pick(SERVICES), message: row.text, user_agent: null, referrer: null, utm_source: row.source || null, created_at: timestamp(row.at) })))
            .returning('id')
            .execute()
        : [];
      const applicationIds = applications.length
        ? await trx
            .insertInto('job_applications')
            .values(applications.map((row) => ({ name: row.name, email: row.email, phone: row.phone, city: 'Львів', position: 'SMM-менеджер', resume_text: row.text, user_agent: null, referrer: null, utm_source: row.source || null, created_at: timestamp(row.at) })))
            .returning('id')
            .execute()
        : [];
      const submissionId = new Map([...contact.map((row, i) => [row.n, Number(contactIds[i].id)]), ...applications.map((row, i) => [row.n, Number(applicationIds[i].id)])]);
      const leads = await trx
        .insertInto('leads')
        .values(
          rows.map((row) => ({
            kind: row.kind,
            submission_id: submissionId.get(row.n),
            received_at: row.at.toISOString(),
            source: row.source,
            status: row.status,
            version: 1,
            updated_at: row.at.toISOString(),
            last_activity_at: lastActivity(row.at).toISOString(),
            ...(responders.length > 0 && followUpOf(row.status, row.at, to, responders, nextWork, working)),
          })),
        )
        .returning(['id', 'kind', 'submission_id'])
        .execute();
      const leadId = new Map(leads.map((lead) => [`${lead.kind} ${lead.submission_id}`, Number(lead.id)]));
      // Each person's leads take the first one's id (known once it is stored, in this batch or before).
      const linked = rows.filter((row) => firstOf[row.n] !== -1);
      for (const row of linked) if (firstOf[row.n] === row.n) persons.get(row.n).id = leadId.get(`${row.kind} ${submissionId.get(row.n)}`);
      const links = linked.map((row) => ({ id: leadId.get(`${row.kind} ${submissionId.get(row.n)}`), person: persons.get(firstOf[row.n]).id }));
      if (links.length > 0 && db.dialect.name === 'postgres') {
        await sql`update leads set person_id = l.person from unnest(${links.map((link) => link.id)}::int[], ${links.map((link) => link.person)}::int[]) as l(id, person) where leads.id = l.id`.execute(trx);
      } else {
        for (const link of links) await sql`update leads set person_id = ${link.person} where id = ${link.id}`.execute(trx);
      }
      const submissionOf = (row) =>
        row.kind === 'contact' ? { name: row.name, email: row.email, phone: row.phone, company: 'ТОВ «Бенч»', message: row.text } : { name: row.name, email: row.email, phone: row.phone, resume_text: row.text };
      const search = rows.map((row) => ({ id: leadId.get(`${row.kind} ${submissionId.get(row.n)}`), text: leadSearchText({ kind: row.kind, submission: submissionOf(row) }) }));
      if (db.dialect.name === 'postgres') {
        await sql`insert into lead_search (lead_id, document) select id, to_tsvector('simple', text) from unnest(${search.map((row) => row.id)}::int[], ${search.map((row) => row.text)}::text[]) as s(id, text)`.execute(trx);
      } else {
        for (const row of search) await sql`insert into lead_search (rowid, text) values (${row.id}, ${row.text})`.execute(trx);
      }
      if (withNotifications) {
        await trx
          .insertInto('lead_outbox')
          .values(
            rows.map((row) => {
              const id = submissionId.get(row.n);
              const payload = { kind: row.kind, id, idempotency_key: `${row.kind}-${id}`, created_at: row.at.toISOString(), referrer: null, submission: submissionOf(row) };
              return {
                submission_kind: row.kind,
                submission_id: id,
                channel: 'webhook',
                payload: JSON.stringify(payload),
                status: 'delivered',
                attempts: 1,
                next_attempt_at: timestamp(row.at),
                give_up_at: timestamp(new Date(row.at.getTime() + 86_400_000)),
                created_at: timestamp(row.at),
                delivered_at: timestamp(row.at),
              };
            }),
          )
          .execute();
      }
    });
  }
  // Fresh statistics, as a database that grew to this size over time has.
  await sql`analyze`.execute(db.kysely);
  const seconds = (performance.now() - started) / 1000;
  await db.destroy();
  return seconds;
}
