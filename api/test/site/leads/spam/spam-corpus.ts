/**
 * Form submissions the spam-defence tests own: the bots that find a small agency's forms and the
 * people who actually write to it, in the order they arrive. Each entry says what was typed
 * (`fields`, as the server sees them after trimming) and how it was sent (`delivery`: the
 * channel, the form token, the time spent on the page, the proof of work, the address and the
 * user agent). A layered defence should turn away every bot and none of the humans.
 *
 * The corpus is built once, when the module loads, from the tables below. Variety (names, phones,
 * addresses, which sentences a message is made of) comes from a seeded generator, so every run
 * sees exactly the same corpus.
 */
import type { ContactMessage, JobApplication } from '@agency/shared';
import { SERVICE_TYPE_VALUES, VACANCIES, VACANCY_TITLES, type ServiceType } from '@agency/shared';

export type CorpusForm = 'contact' | 'job-application';

export interface CorpusDelivery {
  /** 'script': the form's own script posts JSON from a browser (Sec-Fetch-* and Origin headers, a browser user agent).
   *  'no-script': the browser posts the HTML form (urlencoded) because scripts are off.
   *  'direct': a program posts JSON straight to the API (no Sec-Fetch-*, no Origin; its own user agent). */
  channel: 'script' | 'no-script' | 'direct';
  /** The signed form token the page carried: 'page' = issued when the page was served, `fillSeconds` before sending;
   *  'none' = no token sent; 'forged' = a made-up token; 'replayed' = the token of entry `replayOf`, sent again;
   *  'stale' = a genuine token issued `fillSeconds` before (hours). */
  token: 'page' | 'none' | 'forged' | 'replayed' | 'stale';
  replayOf?: string;
  /** Seconds between the page being served and the form being sent. */
  fillSeconds: number;
  /** The invisible proof of work ('script' channel only; 'no-script' and 'direct' always 'none'): solved, not sent, or a wrong solution. */
  pow: 'solved' | 'none' | 'invalid';
  /** The sender's IP address (use 203.0.113.x, 198.51.100.x, 192.0.2.x and documentation IPv6 2001:db8::/32). */
  address: string;
  userAgent: string;
}

export interface CorpusEntry {
  id: string; // e.g. 'bot-direct-007', 'human-uk-031'
  who: 'bot' | 'human';
  kind: string; // one of BOT_KIND_MINIMUMS' or HUMAN_KIND_MINIMUMS' keys
  form: CorpusForm;
  fields: ContactMessage | JobApplication; // ContactMessage for 'contact', JobApplication for 'job-application'
  delivery: CorpusDelivery;
  /** One line: what this entry imitates. */
  note: string;
}

/** The bot kinds and how many entries of each the corpus holds at least. */
export const BOT_KIND_MINIMUMS = {
  'direct-no-token': 40,
  'captured-token-source': 5,
  'replayed-token': 25,
  'headless-fast': 30,
  links: 30,
  'url-only': 10,
  'latin-foreign': 20,
  'spam-phrases': 20,
  'disposable-email': 20,
  'one-message-many-addresses': 25,
  'forged-token': 10,
  'stale-token': 10,
  'no-pow': 10,
} as const;

/** The human kinds and how many entries of each the corpus holds at least. */
export const HUMAN_KIND_MINIMUMS = {
  uk: 70,
  ru: 30,
  en: 30,
  mixed: 10,
  typos: 15,
  phones: 15,
  'quoted-company': 10,
  'own-site-link': 15,
  job: 40,
} as const;

/** Humans who post the HTML form with scripts off. */
export const HUMAN_NO_SCRIPT_MINIMUM = 50;

export type BotKind = keyof typeof BOT_KIND_MINIMUMS;
export type HumanKind = keyof typeof HUMAN_KIND_MINIMUMS;

// ---------------------------------------------------------------------------------------------
// A seeded generator (mulberry32) and the few ways the builders below use it. No Math.random:
// the corpus must be the same on every run.

function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = seededRandom(0x69_5a4d);

/** A whole number from `min` to `max`, both included. */
function between(min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

/** A number from `min` to `max` with `digits` decimals. */
function decimal(min: number, max: number, digits: number): number {
  return Number((min + random() * (max - min)).toFixed(digits));
}

function chance(probability: number): boolean {
  return random() < probability;
}

function pick<T>(list: readonly T[]): T {
  const item = list[Math.floor(random() * list.length)];
  if (item === undefined) throw new Error('pick() from an empty list');
  return item;
}

function shuffle<T>(list: readonly T[]): T[] {
  const copy = [...list];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy;
}

/** Hands out a list's items in a shuffled order, reshuffling when all were used: variety without repeats close together. */
function cycler<T>(list: readonly T[]): () => T {
  let queue: T[] = [];
  return () => {
    if (queue.length === 0) queue = shuffle(list);
    const item = queue.pop();
    if (item === undefined) throw new Error('cycler() over an empty list');
    return item;
  };
}

function digitString(count: number): string {
  return Array.from({ length: count }, () => String(between(0, 9))).join('');
}

// ---------------------------------------------------------------------------------------------
// The contracts' own values, read from the shared package rather than copied.

function serviceType(value: string): ServiceType {
  const found = SERVICE_TYPE_VALUES.find((type) => type === value);
  if (found === undefined) throw new Error(`No service type "${value}" in SERVICE_TYPE_VALUES`);
  return found;
}

const SMM = serviceType('smm');
const CONTENT = serviceType('content');
const LEADS = serviceType('leads');
const ANALYTICS = serviceType('analytics');

/** What a human's note calls the service a message is about (the type keeps the keys in step with the contract). */
const SERVICE_NOTE: Record<ServiceType | '', string> = {
  smm: 'SMM and targeted ads',
  content: 'content',
  leads: 'lead generation',
  analytics: 'analytics or an audit',
  '': 'a brand launch or general help',
};

type Position = 'support' | 'smm' | 'sales';

function vacancyTitle(id: string): string {
  const title = VACANCIES.find((vacancy) => vacancy.id === id)?.title;
  if (title === undefined || !VACANCY_TITLES.includes(title)) throw new Error(`No vacancy "${id}"`);
  return title;
}

const POSITION_TITLES: Record<Position, string> = {
  support: vacancyTitle('client-support-manager'),
  smm: vacancyTitle('social-media-administrator'),
  sales: vacancyTitle('sales-manager'),
};

// ---------------------------------------------------------------------------------------------
// Addresses. Humans come from one documentation block (and mobile or home IPv6), bots from the
// others, so a test can never confuse the two by address alone: each address is handed out once
// unless a builder reuses it on purpose (a bot's server, an office NAT).

function ipv4Block(prefix: string): string[] {
  return Array.from({ length: 254 }, (_, index) => `${prefix}.${index + 1}`);
}

/**
 * Addresses of one provider's subscribers: each a /64 of its own /56 (what a provider delegates to
 * one household or phone; the site tells clients apart by their /56).
 */
function ipv6Block(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => `${prefix}:${((0x1a + index * 7) * 0x100).toString(16)}::${(0x11 + index * 3).toString(16)}`);
}

function addressPool(addresses: readonly string[]): () => string {
  const free = shuffle(addresses);
  return () => {
    const address = free.pop();
    if (address === undefined) throw new Error('Address pool exhausted');
    return address;
  };
}

const humanAddress = addressPool([
  ...ipv4Block('198.51.100'),
  ...ipv6Block('2001:db8:4b0', 50), // a mobile carrier
  ...ipv6Block('2001:db8:7c1', 30), // home broadband
]);
const botAddress = addressPool([
  ...ipv4Block('203.0.113'),
  ...ipv4Block('192.0.2'),
  ...ipv6Block('2001:db8:bad', 60), // a hosting provider
]);

// ---------------------------------------------------------------------------------------------
// User agents.

/** Real desktop and mobile browsers of people. */
const HUMAN_USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (iPad; CPU OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.7 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0',
] as const;

/** Who browses with scripts off: the same browsers, plus Tor Browser and Firefox ESR with a script blocker. */
const NO_SCRIPT_USER_AGENTS = [
  ...HUMAN_USER_AGENTS,
  'Mozilla/5.0 (Windows NT 10.0; rv:128.0) Gecko/20100101 Firefox/128.0',
  'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  'Mozilla/5.0 (Windows NT 10.0; rv:128.0) Gecko/20100101 Firefox/128.0',
] as const;

/** Browsers bots drive or pretend to be: mostly Chrome, often an old one. */
const BOT_BROWSER_USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 6.1; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/103.0.5060.134 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:115.0) Gecko/20100101 Firefox/115.0',
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
] as const;

const HEADLESS_USER_AGENTS = [
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
] as const;

/** Programs that post straight to the API, each with its own label for notes. */
const DIRECT_CLIENTS = [
  { userAgent: 'python-requests/2.32.3', label: 'a Python script' },
  { userAgent: 'curl/8.5.0', label: 'curl' },
  { userAgent: 'Go-http-client/1.1', label: 'a Go program' },
  { userAgent: 'Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0)', label: 'a form spammer claiming to be IE 9' },
  { userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', label: 'a script claiming to be Googlebot' },
  { userAgent: 'axios/1.7.9', label: 'a Node script (axios)' },
  { userAgent: 'Python-urllib/3.11', label: 'a Python script (urllib)' },
  { userAgent: 'Java/17.0.11', label: 'a Java program' },
  { userAgent: 'okhttp/4.12.0', label: 'an okhttp client' },
  { userAgent: 'Scrapy/2.11.2 (+https://scrapy.org)', label: 'a Scrapy spider' },
  { userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36', label: 'a script with a copied Chrome user agent' },
  { userAgent: 'node', label: 'a Node script (fetch)' },
] as const;

// ---------------------------------------------------------------------------------------------
// People: names, their Latin spellings (for e-mail addresses) and genders (Ukrainian and Russian
// verbs and nouns agree with the writer: «працювала» / «працював»).

type Language = 'uk' | 'ru' | 'en';
type Gender = 'f' | 'm';

/** A sentence that reads differently for a woman and a man, or the same for both. */
type Gendered = string | { readonly f: string; readonly m: string };

interface Person {
  readonly first: string;
  readonly last: string;
  readonly gender: Gender;
  readonly latinFirst: string;
  readonly latinLast: string;
}

function say(text: Gendered, person: Person): string {
  return typeof text === 'string' ? text : text[person.gender];
}

const NAMES: Record<Language, { female: readonly string[]; male: readonly string[]; surnames: readonly string[] }> = {
  uk: {
    female: ['Олена', 'Ірина', 'Наталія', 'Оксана', 'Тетяна', 'Юлія', 'Марія', 'Анна', 'Катерина', 'Світлана', 'Вікторія', 'Олександра', 'Дарина', 'Софія', 'Христина', 'Галина', 'Людмила', 'Ольга', 'Яна', 'Марʼяна', 'Соломія', 'Ганна'],
    male: ['Андрій', 'Олександр', 'Дмитро', 'Сергій', 'Михайло', 'Тарас', 'Богдан', 'Василь', 'Юрій', 'Віталій', 'Максим', 'Роман', 'Ігор', 'Володимир', 'Остап', 'Назар', 'Євген', 'Артем', 'Денис', 'Павло', 'Олег', 'Ярослав'],
    surnames: ['Коваленко', 'Шевчук', 'Бондар', 'Ткаченко', 'Кравчук', 'Мельник', 'Бойко', 'Олійник', 'Лисенко', 'Марченко', 'Савчук', 'Руденко', 'Гнатюк', 'Поліщук', 'Кушнір', 'Романюк', 'Павленко', 'Гаврилюк', 'Зінченко', 'Левченко', 'Мороз', 'Клименко', 'Литвин', 'Сидоренко', 'Дорошенко', 'Ковальчук', 'Онищенко', 'Федорук', 'Яковенко', 'Стасюк', 'Гончар', 'Білик', 'Костенко', 'Приходько', 'Вовк', 'Семенюк', 'Захарчук', 'Дячук', 'Власенко', 'Кармелюк'],
  },
  ru: {
    female: ['Елена', 'Ирина', 'Наталья', 'Оксана', 'Татьяна', 'Юлия', 'Марина', 'Анна', 'Екатерина', 'Светлана', 'Виктория', 'Алёна', 'Людмила', 'Ольга', 'Инна'],
    male: ['Андрей', 'Александр', 'Дмитрий', 'Сергей', 'Михаил', 'Игорь', 'Владимир', 'Евгений', 'Артём', 'Денис', 'Павел', 'Максим', 'Константин', 'Виталий', 'Олег'],
    surnames: ['Коваленко', 'Шевченко', 'Бондаренко', 'Ткаченко', 'Кравец', 'Мельник', 'Бойко', 'Лысенко', 'Марченко', 'Руденко', 'Павленко', 'Зинченко', 'Левченко', 'Мороз', 'Клименко', 'Сидоренко', 'Петренко', 'Гончаренко', 'Костенко', 'Приходько', 'Литвиненко', 'Савченко'],
  },
  en: {
    female: ['Sarah', 'Emma', 'Laura', 'Anna', 'Sophie', 'Katarzyna', 'Julia', 'Elena', 'Rachel', 'Agnieszka', 'Hannah', 'Megan', 'Claire', 'Ingrid'],
    male: ['Michael', 'David', 'James', 'Thomas', 'Daniel', 'Piotr', 'Lukas', 'Marco', 'John', 'Tomasz', 'Jonas', 'Chris', 'Matteo', 'Erik'],
    surnames: ['Fischer', 'Kowalski', 'Nowak', 'Brown', 'Wilson', 'Schneider', 'Rossi', 'Novak', 'Jensen', 'Walsh', 'Bauer', 'Murphy', 'Lindqvist', 'Horvath', 'Dubois', 'Petersen'],
  },
};

/** Ukrainian passport transliteration, simplified; Russian letters as Russians spell them in Latin. */
const LATIN_UK: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'h', ґ: 'g', д: 'd', е: 'e', є: 'ie', ж: 'zh', з: 'z', и: 'y', і: 'i', ї: 'i', й: 'i', к: 'k', л: 'l', м: 'm',
  н: 'n', о: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'kh', ц: 'ts', ч: 'ch', ш: 'sh', щ: 'shch', ь: '', ю: 'iu', я: 'ia',
};
const LATIN_RU: Record<string, string> = { ...LATIN_UK, г: 'g', и: 'i', й: 'y', ы: 'y', э: 'e', ё: 'e', ъ: '', ю: 'yu', я: 'ya', е: 'e' };

function toLatin(text: string, language: Language): string {
  const table = language === 'ru' ? LATIN_RU : LATIN_UK;
  return [...text.toLowerCase()]
    .map((letter) => table[letter] ?? letter)
    .join('')
    .replace(/[^a-z0-9]/g, '');
}

const usedNames = new Set<string>();

function newPerson(language: Language, gender: Gender = chance(0.55) ? 'f' : 'm', surname?: string): Person {
  const names = NAMES[language];
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const first = pick(gender === 'f' ? names.female : names.male);
    const last = surname ?? pick(names.surnames);
    if (usedNames.has(`${first} ${last}`)) continue;
    usedNames.add(`${first} ${last}`);
    return { first, last, gender, latinFirst: toLatin(first, language), latinLast: toLatin(last, language) };
  }
  throw new Error(`Ran out of ${language} names`);
}

/** How a person fills the name field: usually the full name, often the first name only. */
function nameField(person: Person): string {
  const roll = random();
  if (roll < 0.6) return `${person.first} ${person.last}`;
  if (roll < 0.85) return person.first;
  if (roll < 0.95) return `${person.last} ${person.first}`;
  return `${person.first} ${person.last.slice(0, 1)}.`;
}

// ---------------------------------------------------------------------------------------------
// E-mail addresses. Every human has their own; the Set also keeps campaign bots' addresses apart.

const usedEmails = new Set<string>();

function uniqueEmail(local: string, domain: string): string {
  let email = `${local}@${domain}`;
  for (let suffix = 2; usedEmails.has(email); suffix += 1) email = `${local}${suffix}@${domain}`;
  usedEmails.add(email);
  return email;
}

/** Where people keep their mail, as often as they do (a domain listed twice is twice as likely). */
const MAIL_DOMAINS: Record<Language, readonly string[]> = {
  uk: ['gmail.com', 'gmail.com', 'gmail.com', 'gmail.com', 'ukr.net', 'ukr.net', 'ukr.net', 'i.ua', 'meta.ua', 'outlook.com', 'icloud.com'],
  ru: ['gmail.com', 'gmail.com', 'gmail.com', 'ukr.net', 'ukr.net', 'i.ua', 'meta.ua', 'outlook.com'],
  en: ['gmail.com', 'gmail.com', 'outlook.com', 'outlook.com', 'yahoo.com', 'proton.me', 'icloud.com'],
};

function personalEmail(person: Person, language: Language, companyDomain?: string): string {
  const first = person.latinFirst;
  const last = person.latinLast;
  const initial = first.slice(0, 1);
  if (companyDomain !== undefined && chance(0.6)) return uniqueEmail(pick([first, `${initial}.${last}`, `${first}.${last}`]), companyDomain);
  const local = pick([
    `${first}.${last}`,
    `${first}${last}`,
    `${initial}.${last}`,
    `${last}.${first}`,
    `${first}_${last}`,
    `${first}.${last}${between(1, 99)}`,
    `${last}${initial}${between(70, 99)}`,
    `${first}${between(1978, 2004)}`,
  ]);
  return uniqueEmail(local, pick(MAIL_DOMAINS[language]));
}

// ---------------------------------------------------------------------------------------------
// Phone numbers, in every way people write them. PHONE_PATTERN takes 7 to 20 digits with
// `+ ( ) -` and spaces.

const UA_MOBILE_CODES = ['50', '63', '66', '67', '68', '73', '93', '95', '96', '97', '98', '99'] as const;
const UA_PHONE_STYLES = ['+380 67 123 45 67', '067-123-45-67', '(067) 123 45 67', '380671234567', '0671234567', '+38 (050) 123-45-67', '+380671234567', '067 123 4567', '+380 (67) 123-45-67'] as const;

function ukrainianPhone(style: (typeof UA_PHONE_STYLES)[number] = pick(UA_PHONE_STYLES)): string {
  const code = pick(UA_MOBILE_CODES);
  const number = `${between(1, 9)}${digitString(6)}`;
  const [a, b, c] = [number.slice(0, 3), number.slice(3, 5), number.slice(5)];
  switch (style) {
    case '+380 67 123 45 67':
      return `+380 ${code} ${a} ${b} ${c}`;
    case '067-123-45-67':
      return `0${code}-${a}-${b}-${c}`;
    case '(067) 123 45 67':
      return `(0${code}) ${a} ${b} ${c}`;
    case '380671234567':
      return `380${code}${number}`;
    case '0671234567':
      return `0${code}${number}`;
    case '+38 (050) 123-45-67':
      return `+38 (0${code}) ${a}-${b}-${c}`;
    case '+380671234567':
      return `+380${code}${number}`;
    case '067 123 4567':
      return `0${code} ${a} ${b}${c}`;
    case '+380 (67) 123-45-67':
      return `+380 (${code}) ${a}-${b}-${c}`;
  }
}

/** Numbers of clients abroad (US and UK ones from the ranges set aside for fiction). */
const FOREIGN_PHONES: readonly (() => string)[] = [
  () => `+48 ${between(500, 799)} ${digitString(3)} ${digitString(3)}`,
  () => `+1 (${pick(['415', '212', '312', '617', '646'])}) 555-01${digitString(2)}`,
  () => `+44 7700 900${digitString(3)}`,
  () => `+49 15${between(1, 7)} ${digitString(8)}`,
  () => `+372 5${digitString(3)} ${digitString(4)}`,
  () => `+420 ${between(601, 799)} ${digitString(3)} ${digitString(3)}`,
  () => `+31 6 ${digitString(4)} ${digitString(4)}`,
  () => `+45 ${digitString(2)} ${digitString(2)} ${digitString(2)} ${digitString(2)}`,
];

function humanPhone(language: Language): string {
  if (language === 'en') return chance(0.8) ? pick(FOREIGN_PHONES)() : ukrainianPhone();
  return chance(0.06) ? pick(FOREIGN_PHONES)() : ukrainianPhone();
}

// ---------------------------------------------------------------------------------------------
// Human messages. No two humans send the same text: every message and résumé is claimed here.

const usedTexts = new Set<string>();

function claim(text: string): string {
  if (usedTexts.has(text)) throw new Error(`The corpus has this human text twice: ${text}`);
  usedTexts.add(text);
  return text;
}

/** Builds texts until one is new. */
function distinct(build: () => string): string {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const text = build();
    if (!usedTexts.has(text)) return claim(text);
  }
  throw new Error('Could not build a new text');
}

/** A business a message may be from: how the writer introduces it, and maybe its name and mail domain. */
interface Business {
  readonly intro: Gendered;
  readonly company?: string;
  readonly domain?: string;
}

interface Need {
  readonly text: string;
  readonly service: ServiceType | '';
}

/** The sentences of one language that inquiries are made of. */
interface InquiryPack {
  readonly language: Language;
  readonly businesses: readonly Business[];
  readonly needs: readonly Need[];
  /** What the writer may spend: a message names one budget at most. */
  readonly budgets: readonly string[];
  readonly details: readonly string[];
  readonly questions: readonly string[];
  readonly greetings: readonly string[];
  /** Joins the greeting to what follows in a one-paragraph message. */
  readonly greetingJoin: ' ' | '\n';
  readonly signoffs: readonly ((person: Person, company: string) => string)[];
}

// Ukrainian inquiries: small and mid-sized businesses asking for SMM, content, leads, analytics,
// audits or a launch, the way owners and marketers write to an agency.
const UK_PACK: InquiryPack = {
  language: 'uk',
  businesses: [
    { intro: 'Маємо невелику кавʼярню в центрі Львова, працюємо третій рік.', company: 'Кавʼярня «Ранок»', domain: 'ranok-coffee.com.ua' },
    { intro: 'У нас інтернет-магазин дитячого одягу, відправляємо по всій Україні Новою поштою.', company: 'Little Bee', domain: 'littlebee.com.ua' },
    { intro: { f: 'Я власниця салону краси на Оболоні, у нас шість майстрів.', m: 'Я власник салону краси на Оболоні, у нас шість майстрів.' }, company: 'Beauty Loft' },
    { intro: 'Ми стоматологічна клініка в Дніпрі, дві філії на лівому березі.', company: 'Дентал Сіті', domain: 'dentalcity.dp.ua' },
    { intro: 'Відкриваємо пекарню-кондитерську у Вінниці, старт плануємо на весну.' },
    { intro: 'Наша компанія продає та встановлює сонячні електростанції для приватних будинків.', company: 'ТОВ «Сонячний дім»', domain: 'sonyachnyi-dim.com.ua' },
    { intro: { f: 'Я фітнес-тренерка, веду групові заняття в залі та онлайн-марафони.', m: 'Я фітнес-тренер, веду групові заняття в залі та онлайн-марафони.' } },
    { intro: 'Ми виготовляємо меблі під замовлення, цех під Києвом, шоурум на Теремках.', company: 'Меблі Мрія', domain: 'mebli-mriya.com.ua' },
    { intro: 'У нас чотири квіткові крамниці в Одесі й доставка по місту.', company: 'Flower Lab' },
    { intro: { f: 'Я адвокатка, маю приватну практику, спеціалізуюся на сімейному праві.', m: 'Я адвокат, маю приватну практику, спеціалізуюся на сімейному праві.' } },
    { intro: 'Ми ІТ-школа для підлітків: навчаємо програмуванню офлайн у Києві та онлайн.', company: 'CodeKids', domain: 'codekids.com.ua' },
    { intro: 'Займаємося ремонтом квартир під ключ у Києві та області.' },
    { intro: 'Ми невелика сироварня на Полтавщині, варимо крафтові сири.', company: 'Сироварня «Ворскла»' },
    { intro: 'У нас агентство нерухомості в Івано-Франківську, дванадцять ріелторів.', company: 'Дім Плюс' },
    { intro: 'Я відповідаю за маркетинг у компанії, що продає сільгосптехніку фермерам.', company: 'Агротехсервіс', domain: 'agrotechservice.com.ua' },
    { intro: 'Пів року тому відкрили ветеринарну клініку на Троєщині.', company: 'Ветклініка «Лапа»' },
    { intro: 'Ми бренд натуральної косметики ручної роботи, продаємо через сайт і маркетплейси.', company: 'Mila Naturals', domain: 'milanaturals.com.ua' },
    { intro: 'Маємо невеликий готель у Карпатах на 24 номери.', company: 'Готель «Смерека»', domain: 'smereka-hotel.com.ua' },
    { intro: 'Ми логістична компанія, вантажні перевезення Україною та до ЄС.', company: 'ТОВ «Карго Лайн»', domain: 'cargoline.com.ua' },
    { intro: 'У мене студія йоги в Харкові, працюємо попри все.' },
    { intro: 'Ми приватний дитячий садок у Броварах, дві групи.' },
    { intro: 'Займаємося доставкою здорового харчування: готові раціони на день.', company: 'FitBox' },
    { intro: { f: 'Я психологиня, консультую онлайн, переважно дорослих.', m: 'Я психолог, консультую онлайн, переважно дорослих.' } },
    { intro: 'Виробляємо екоупаковку для кафе та ресторанів.', company: 'ТОВ «ЕкоПак»', domain: 'ecopack.com.ua' },
    { intro: 'У нас автосервіс і шиномонтаж у Запоріжжі.' },
    { intro: 'Ми школа англійської мови, три філії в Києві.', company: 'Speak Up' },
    { intro: 'Ми сімейна винарня на Закарпатті, продаємо вино в ресторани й через сайт.', company: 'Винарня «Берег»' },
    { intro: 'Продаємо будматеріали оптом і вроздріб, склад у Житомирі.' },
    { intro: 'Запускаємо власний бренд спортивного одягу, перша колекція вже пошита.' },
    { intro: 'Ми медичний центр у Тернополі: діагностика, аналізи, консультації лікарів.', company: 'Медцентр «Здоровʼя+»' },
    { intro: 'У нас ресторан грузинської кухні на Подолі.' },
    { intro: { f: 'Я фотографиня, знімаю весілля та сімейні фотосесії.', m: 'Я фотограф, знімаю весілля та сімейні фотосесії.' } },
    { intro: 'Ми невелике видавництво дитячої літератури.', company: 'Видавництво «Ластівка»' },
    { intro: 'Ми кейтеринг-компанія, обслуговуємо корпоративи та виїзні події.' },
    { intro: 'У нас зоомагазин і грумінг-салон у Луцьку.' },
    { intro: 'Продаємо й монтуємо кондиціонери в Києві.' },
    { intro: 'Маємо студію манікюру й плануємо відкрити другу точку.' },
    { intro: 'Ми громадська організація, допомагаємо ветеранам із працевлаштуванням.' },
  ],
  needs: [
    { service: SMM, text: 'Хочемо передати комусь ведення Instagram і Facebook: контент-план, пости, сторіс, відповіді в директі.' },
    { service: SMM, text: 'Потрібне SMM-просування: сторінку ведемо самі, але нових підписників майже немає.' },
    { service: SMM, text: 'Шукаємо агенцію, яка налаштує таргетовану рекламу в Instagram на наше місто.' },
    { service: SMM, text: 'Цікавить таргет у Facebook та Instagram, бо зараз реклама «крутиться», а дзвінків немає.' },
    { service: SMM, text: 'Хочемо почати вести TikTok, але не розуміємо, з чого почати і чи це нам підходить.' },
    { service: SMM, text: 'Потрібна допомога з оформленням профілю і рекламою сторіс перед сезоном.' },
    { service: CONTENT, text: 'Потрібні тексти для сайту і регулярні статті в блог.' },
    { service: CONTENT, text: 'Шукаємо, хто писатиме українською описи товарів, розсилки й пости.' },
    { service: CONTENT, text: 'Хочемо короткі відео для соцмереж щотижня: сценарії, зйомка, монтаж.' },
    { service: CONTENT, text: 'Цікавить контент-маркетинг: експертні статті, кейси, розсилка для клієнтів.' },
    { service: CONTENT, text: 'Потрібні якісні фото й відео для сторінок, бо зараз усе знімаємо на телефон.' },
    { service: LEADS, text: 'Нам потрібні заявки, а не лайки, тому цікавить саме лідогенерація.' },
    { service: LEADS, text: 'Хочемо налаштувати стабільний потік заявок, зараз приходить 5–7 на місяць.' },
    { service: LEADS, text: 'Цікавить реклама в Google на пошуку, щоб телефонували ті, хто вже шукає наші послуги.' },
    { service: LEADS, text: 'Треба більше замовлень із сайту: реклама є, а заявок мало.' },
    { service: LEADS, text: 'Хочемо запустити рекламу з лід-формами і зрозуміти, скільки нам коштує один клієнт.' },
    { service: ANALYTICS, text: 'Потрібна допомога з аналітикою: не розуміємо, який канал реклами реально приносить продажі.' },
    { service: ANALYTICS, text: 'Хочемо аудит сайту і реклами, бо гроші витрачаємо, а результату не видно.' },
    { service: ANALYTICS, text: 'Треба налаштувати GA4 і відстеження дзвінків та заявок із сайту.' },
    { service: ANALYTICS, text: 'Цікавить аудит рекламних кабінетів і щомісячна звітність зрозумілою мовою.' },
    { service: ANALYTICS, text: 'Просимо подивитися наш сайт: люди заходять, але майже не залишають заявок.' },
    { service: '', text: 'Плануємо запуск бренду з нуля: назва є, потрібні айдентика, соцмережі й перша рекламна кампанія.' },
    { service: '', text: 'Потрібна комплексна допомога із запуском, від позиціонування до перших продажів.' },
    { service: '', text: 'Хочемо оновити бренд: логотип застарів, а сторінки в соцмережах виглядають хто в ліс, хто по дрова.' },
  ],
  budgets: [
    'Бюджет на рекламу — до 15 000 грн на місяць, окремо ваші послуги.',
    'Бюджет поки скромний: 10–12 тисяч гривень на місяць разом з рекламою.',
    'Готові вкладати 30–40 тис. грн на місяць, якщо бачитимемо результат.',
  ],
  details: [
    'Раніше працювали з фрилансером, але звітів не було і незрозуміло, за що платили.',
    'Сайт у нас є, зроблений на Tilda, можемо дати доступи.',
    'В Instagram зараз близько 2 тисяч підписників, більшість — знайомі.',
    'Хотілося б стартувати вже з наступного місяця.',
    'Наші клієнти — переважно жінки 25–45 років.',
    'Маємо свого дизайнера, тож візуал можемо готувати самі.',
    'Сезон починається у квітні, хочемо підготуватися заздалегідь.',
    'Є менеджерка, яка обробляє заявки, але їй бракує вхідного потоку.',
    'Працюємо офіційно, оплата по безготівці.',
    'Пробували просувати пости самі через кнопку «Просувати», результат слабкий.',
    'Конкуренти активно рекламуються, а нас у мережі майже не видно.',
    'Працюємо на всю Україну, але найбільше замовлень з Києва.',
    'Минулого року пробували контекстну рекламу, витратили 20 тисяч і отримали два замовлення.',
    'Хочемо, щоб хтось пояснив, що ми робимо не так, бо самі вже заплуталися.',
  ],
  questions: [
    'Скільки коштують ваші послуги і з чого ви б почали?',
    'Підкажіть, будь ласка, вартість і орієнтовні терміни.',
    'Чи можемо зідзвонитися цього тижня й обговорити деталі?',
    'Надішліть, будь ласка, комерційну пропозицію на пошту.',
    'Чи працюєте ви з такими нішами? Якщо так, зателефонуйте, будь ласка.',
    'Чи є у вас кейси в подібній сфері?',
    'Зручніше спілкуватися у Viber або Telegram за цим номером.',
    'Можемо зустрітися в офісі або онлайн, як вам зручніше.',
    'Чекаю на відповідь, дякую!',
    'Яка мінімальна тривалість співпраці?',
    'Чи можна почати з тестового місяця?',
  ],
  greetings: ['Добрий день!', 'Доброго дня.', 'Вітаю!', 'Добрий вечір.', 'Доброго ранку!', 'Добрий день.', 'Привіт!'],
  greetingJoin: ' ',
  signoffs: [
    (person) => `З повагою, ${person.first} ${person.last}`,
    () => 'Дякую!',
    (person) => person.first,
    () => 'Гарного дня!',
    (person, company) => (company === '' ? `${person.first} ${person.last}` : `${person.first}, ${company}`),
  ],
};

// Russian inquiries: many Ukrainian clients, in Kharkiv, Dnipro and Odesa especially, write in Russian.
const RU_PACK: InquiryPack = {
  language: 'ru',
  businesses: [
    { intro: 'У нас интернет-магазин женской обуви, доставка по всей Украине.', company: 'Shoes Room' },
    { intro: 'Мы сеть кофеен в Харькове, пять точек.', company: 'Кофейня «Зерно»' },
    { intro: { f: 'Я владелица студии маникюра в Днепре.', m: 'Я владелец студии маникюра в Днепре.' } },
    { intro: 'Мы занимаемся продажей и установкой окон и дверей в Одессе.', company: 'Окна Юг', domain: 'okna-yug.com.ua' },
    { intro: 'У нас частная клиника эстетической медицины в Киеве.' },
    { intro: 'Мы производим кухонную мебель под заказ.', company: 'Кухни Мастер' },
    { intro: 'Открываем автомойку самообслуживания в Запорожье.' },
    { intro: 'У нас детский развлекательный центр в торговом центре.' },
    { intro: 'Мы небольшое туристическое агентство, туры по Украине и Европе.', company: 'Travel Point', domain: 'travelpoint.com.ua' },
    { intro: 'Я частный репетитор по математике и хочу перейти в формат онлайн-школы.' },
    { intro: 'Мы застройщик, продаём квартиры в новом жилом комплексе под Киевом.', company: 'ЖК «Зелёный квартал»' },
    { intro: 'У нас доставка суши и пиццы в Николаеве.' },
    { intro: 'Мы оптовый поставщик кофе и чая для ресторанов и кафе.', company: 'ТОВ «Кофе Трейд»', domain: 'coffeetrade.com.ua' },
    { intro: 'У нас студия танцев для детей и взрослых.' },
    { intro: 'Мы магазин запчастей для сельхозтехники.' },
    { intro: { f: 'Я владелица барбершопа на Позняках.', m: 'Я владелец барбершопа на Позняках.' } },
  ],
  needs: [
    { service: SMM, text: 'Нужно ведение Instagram и таргетированная реклама.' },
    { service: SMM, text: 'Ищем SMM-специалиста или агентство на постоянной основе.' },
    { service: SMM, text: 'Хотим запустить рекламу в Instagram на свой город.' },
    { service: CONTENT, text: 'Нужны тексты для сайта и посты для соцсетей на украинском языке.' },
    { service: CONTENT, text: 'Интересует съёмка и монтаж коротких видео для Reels.' },
    { service: LEADS, text: 'Нужны заявки: сейчас их очень мало, хотим настроить рекламу под лиды.' },
    { service: LEADS, text: 'Интересует контекстная реклама в Google, чтобы шли звонки.' },
    { service: LEADS, text: 'Хотим увеличить количество записей через сайт.' },
    { service: ANALYTICS, text: 'Нужен аудит рекламы: деньги уходят, а продаж больше не становится.' },
    { service: ANALYTICS, text: 'Хотим настроить аналитику и понимать, откуда приходят клиенты.' },
    { service: '', text: 'Нужна помощь с запуском нового направления с нуля.' },
  ],
  budgets: ['Бюджет на рекламу — около 20 тысяч гривен в месяц.', 'Бюджет пока небольшой, до 10 тысяч гривен в месяц вместе с рекламой.'],
  details: [
    'Раньше работали с таргетологом, но результат не устроил.',
    'Сайт есть, страница в Instagram тоже, но всё ведём сами.',
    'Хотелось бы начать как можно скорее, у нас скоро сезон.',
    'Клиенты в основном из нашего города.',
    'Готовы рассмотреть долгосрочное сотрудничество.',
    'Отчёты нужны раз в неделю, хотя бы коротко.',
    'Работаем официально, нужен договор.',
  ],
  questions: [
    'Сколько стоят ваши услуги?',
    'Подскажите, пожалуйста, стоимость и сроки.',
    'Перезвоните, пожалуйста, в удобное время.',
    'Можете прислать коммерческое предложение на почту?',
    'Есть ли у вас кейсы в похожей нише?',
    'Можно созвониться завтра после обеда?',
    'Пишите лучше в Telegram.',
  ],
  greetings: ['Здравствуйте!', 'Добрый день.', 'Доброго дня!', 'Добрый вечер!', 'Приветствую.'],
  greetingJoin: ' ',
  signoffs: [(person) => `С уважением, ${person.first}`, () => 'Спасибо!', (person) => `${person.first} ${person.last}`],
};

// English inquiries: foreign companies and diaspora founders who want to reach Ukrainians.
const EN_PACK: InquiryPack = {
  language: 'en',
  businesses: [
    { intro: 'We are a Polish e-commerce company selling home textiles and plan to enter the Ukrainian market next quarter.', company: 'Domotex Sp. z o.o.', domain: 'domotex.pl' },
    { intro: 'I run a small HR software startup based in Tallinn, and Ukraine is one of our target markets.', company: 'Peoplestack', domain: 'peoplestack.ee' },
    { intro: 'We are a US nonprofit running education programmes in Kharkiv and Dnipro.', company: 'Bright Futures Foundation' },
    { intro: 'Our company organises tech conferences in Central Europe, and we are planning an event in Kyiv.', company: 'Eastbound Events', domain: 'eastbound-events.com' },
    { intro: 'We are a German manufacturer of agricultural machinery with a dealer network in Ukraine.', company: 'Hofmann Landtechnik GmbH', domain: 'hofmann-landtechnik.de' },
    { intro: 'I lead marketing at a Czech mobile game studio.', company: 'Pixel Forge' },
    { intro: 'We own a boutique hotel group in Georgia and want to attract guests from Ukraine.' },
    { intro: 'We are a UK online school teaching English to children.', company: 'Little Linguists', domain: 'littlelinguists.co.uk' },
    { intro: 'We produce plant-based snacks in Lithuania and are launching on Ukrainian marketplaces.', company: 'Green Crunch' },
    { intro: 'I am a Ukrainian founder based in Berlin, running a small jewellery brand.' },
    { intro: 'We are an international logistics company opening an office in Lviv.', company: 'Nordline Logistics', domain: 'nordline.eu' },
    { intro: 'We are a Canadian immigration consultancy, and many of our clients are Ukrainian.' },
    { intro: 'Our dental clinic in Warsaw has many Ukrainian-speaking patients.', company: 'Smile Studio Warszawa' },
    { intro: 'We are building a fintech app for freelancers and need to grow our Ukrainian user base.', company: 'Payflow', domain: 'payflow.app' },
    { intro: 'We are a Dutch flower exporter working with florists across Ukraine.' },
    { intro: 'We are a recruitment agency hiring Ukrainian engineers for EU companies.', company: 'TalentBridge' },
    { intro: 'We are an NGO supporting the rehabilitation of veterans, and we need help communicating our programmes.' },
    { intro: 'We sell refurbished laptops to schools and small businesses in Eastern Europe.', company: 'ReTech Europe' },
  ],
  needs: [
    { service: SMM, text: 'We need someone to run our Instagram and Facebook in Ukrainian: a content plan, posts and community management.' },
    { service: SMM, text: 'We are looking for an agency to set up and manage paid social campaigns targeting Ukraine.' },
    { service: LEADS, text: 'We would like help with lead generation for B2B clients in Ukraine.' },
    { service: LEADS, text: 'We need a steady flow of qualified leads from Ukraine, ideally through search and LinkedIn.' },
    { service: ANALYTICS, text: 'We need an analytics audit: GA4 and our ad platforms disagree, and we cannot tell which channel works.' },
    { service: ANALYTICS, text: 'We would like an independent review of our current campaigns in Ukraine before we increase the budget.' },
    { service: CONTENT, text: 'We need localised content: blog articles, newsletters and product descriptions in Ukrainian.' },
    { service: '', text: 'We would like a launch campaign for our brand in Ukraine, from positioning to the first ads.' },
  ],
  budgets: ['Our monthly budget is around EUR 3,000 including ad spend.', 'We have set aside about USD 5,000 for the first quarter.'],
  details: [
    'We would like to start in March and review the results after three months.',
    'We have an in-house designer, so we mainly need strategy and execution.',
    'At the moment we have no presence in Ukraine at all.',
    'Reporting in English is essential, as our management does not speak Ukrainian.',
    'We can sign a contract with a Ukrainian or an EU entity, whichever is easier for you.',
    'We tried a freelancer last year, but it was hard to coordinate across time zones.',
  ],
  questions: [
    'Could you send us your rates and a few relevant case studies?',
    'Would you be available for a call next week?',
    'Please let me know if this is something you can help with.',
    'What would the first steps and the approximate cost be?',
    'Do you work with foreign clients, and how do you invoice?',
  ],
  greetings: ['Hello,', 'Hi there,', 'Good afternoon,', 'Dear team,', 'Hi,'],
  greetingJoin: '\n',
  signoffs: [
    (person) => `Best regards,\n${person.first} ${person.last}`,
    (person) => `Thanks,\n${person.first}`,
    (person, company) => (company === '' ? `Kind regards,\n${person.first} ${person.last}` : `Kind regards,\n${person.first} ${person.last}\n${company}`),
  ],
};

interface Inquiry {
  readonly message: string;
  readonly service: ServiceType | '';
  readonly company: string;
  readonly domain?: string;
  readonly shape: string;
}

const nextBusiness = new Map<InquiryPack, () => Business>();
const nextNeed = new Map<InquiryPack, () => Need>();

/** An inquiry of one to several paragraphs made of a pack's sentences, never the same text twice. */
function composeInquiry(pack: InquiryPack, person: Person): Inquiry {
  const businesses = nextBusiness.get(pack) ?? cycler(pack.businesses);
  const needs = nextNeed.get(pack) ?? cycler(pack.needs);
  nextBusiness.set(pack, businesses);
  nextNeed.set(pack, needs);
  let service: ServiceType | '' = '';
  let company = '';
  let domain: string | undefined;
  let shape = '';
  const message = distinct(() => {
    const business = businesses();
    const need = needs();
    const intro = say(business.intro, person);
    const greeting = pick(pack.greetings);
    const question = pick(pack.questions);
    const [first, second] = shuffle(pack.details);
    const budget = pick(pack.budgets);
    service = need.service;
    company = business.company !== undefined && chance(0.55) ? business.company : '';
    domain = business.domain;
    shape = pick(['one line', 'one line', 'short', 'short', 'short', 'paragraphs', 'paragraphs', 'long']);
    switch (shape) {
      case 'one line':
        return chance(0.5) ? `${need.text} ${question}` : `${intro} ${need.text}`;
      case 'short':
        return `${greeting}${pack.greetingJoin}${intro} ${need.text} ${question}`;
      case 'paragraphs':
        return `${greeting}\n${intro} ${need.text}\n${chance(0.5) ? budget : (first ?? '')} ${question}`;
      default: {
        const needParagraph = [need.text, chance(0.7) ? budget : undefined, second].filter((sentence) => sentence !== undefined).join(' ');
        return [greeting, `${intro} ${first ?? ''}`, needParagraph, question, pick(pack.signoffs)(person, company)].join('\n\n');
      }
    }
  });
  return { message, service, company, domain, shape };
}

/** A message written out in full, for what templates would not say well. */
interface Handwritten {
  readonly gender?: Gender;
  readonly service: ServiceType | '';
  readonly company?: string;
  readonly text: (person: Person) => string;
  readonly note: string;
}

// Ukrainian inquiries written out: the shortest and the longest, and unusual requests.
const UK_HANDWRITTEN: readonly Handwritten[] = [
  { service: SMM, text: () => 'Цікавить ведення Instagram для кавʼярні, скільки це коштує?', note: 'one-line question about Instagram for a café' },
  { service: ANALYTICS, text: () => 'Потрібен аудит реклами в Google Ads, зателефонуйте, будь ласка.', note: 'one-line request for an ads audit' },
  { service: LEADS, text: () => 'Хочемо лідогенерацію для курсів бухгалтерії.', note: 'one-line lead-generation request' },
  {
    gender: 'f',
    service: '',
    text: (person) =>
      `Доброго дня!\n\nМене звати ${person.first}, ми з чоловіком відкриваємо сімейну пекарню в Ірпені. Приміщення вже орендували, обладнання закупили, відкриття плануємо на кінець квітня.\n\nПотрібна допомога з брендом і соцмережами: назву придумали («Хлібна хата»), а от логотипу, фото і сторінок ще немає. Хочемо, щоб до відкриття про нас уже знали в місті — можливо, розіграш, реклама на мешканців району, співпраця з місцевими блогерами.\n\nБюджет обмежений, тому хочемо зрозуміти, що зробити в першу чергу, а що може зачекати. Скільки коштуватиме такий запуск і за скільки часу реально все підготувати?\n\nДякую!`,
    note: 'four paragraphs about launching a family bakery',
  },
  {
    service: ANALYTICS,
    company: 'Сантехмаркет',
    text: () =>
      'Добрий день. Ми інтернет-магазин сантехніки, працюємо з 2017 року. Реклама йде в Google Ads (пошук і Performance Max) та в Meta, загалом близько 120 тис. грн на місяць.\n\nПроблема в тому, що Google Ads показує одну кількість конверсій, GA4 — іншу, а в CRM ми бачимо третю цифру. Керівництво питає, чи окупається реклама, і ми не можемо чесно відповісти.\n\nПотрібно перевірити налаштування аналітики, звести дані в один звіт і дати рекомендації, куди перерозподілити бюджет. Можемо надати доступи до всіх кабінетів.\n\nЯкі терміни й вартість такого аудиту?',
    note: 'long analytics-audit brief from an online plumbing store',
  },
  {
    service: SMM,
    text: () => 'Добрий день! Підкажіть, чи берете ви в роботу маленькі проєкти? У мене майстерня з ремонту взуття, одна точка на Лукʼянівці. Хочу, щоб про нас знали в районі.',
    note: 'a shoe-repair shop asks whether small projects are taken',
  },
  {
    service: CONTENT,
    text: () => 'Шукаємо підрядника на постійну співпрацю з контентом для трьох наших брендів (косметика, побутова хімія, товари для дому). Обсяг — приблизно 40 публікацій на місяць і 8 статей для блогу. Надішліть, будь ласка, прайс і приклади робіт.',
    note: 'a content volume request for three brands',
  },
  {
    gender: 'f',
    service: LEADS,
    text: () => 'Доброго вечора. Я лікарка-косметологиня, працюю в орендованому кабінеті. Клієнток вистачає із сарафанного радіо, але хочу більше записів на дорожчі процедури. Чи можна налаштувати рекламу саме під них?',
    note: 'a cosmetologist wants bookings for expensive procedures',
  },
  {
    service: SMM,
    text: () => 'Потрібна реклама для благодійного фонду: збираємо на реабілітацію поранених. Чи працюєте ви з благодійними організаціями на пільгових умовах?',
    note: 'a charity asks for discounted work',
  },
  {
    service: SMM,
    text: () => 'Вітаю! Ми франшиза дитячих розвивальних центрів, 9 міст. Кожен партнер веде сторінки як хоче, і бренд усюди виглядає по-різному. Потрібна єдина стратегія і, можливо, централізоване ведення. Чи є у вас досвід із мережами та франшизами?',
    note: 'a franchise wants one social-media strategy for nine cities',
  },
  {
    service: ANALYTICS,
    text: () => 'Доброго дня. Хочемо замовити аналіз конкурентів у ніші доставки суші в Харкові: хто скільки витрачає на рекламу, які пропозиції, що публікують. Чи робите таке окремою послугою?',
    note: 'a competitor analysis request',
  },
  {
    service: LEADS,
    company: 'ТОВ «Промфільтр»',
    text: () => 'Маємо B2B-компанію (промислові фільтри). Продажі йдуть через менеджерів і тендери, маркетингу фактично немає. Хочемо спробувати лідогенерацію через LinkedIn і Google. З чого радите почати?',
    note: 'an industrial B2B company new to marketing',
  },
];

const RU_HANDWRITTEN: readonly Handwritten[] = [
  { service: SMM, text: () => 'Здравствуйте. Нужна реклама для магазина рыболовных товаров, сколько стоит?', note: 'one-line price question from a fishing shop' },
  {
    service: LEADS,
    text: () => 'Добрый день! Мы открываем второй филиал стоматологии и хотим, чтобы к открытию уже была запись. Что посоветуете: таргет, Google или всё вместе? Бюджет готовы обсуждать.',
    note: 'a dental clinic opening a branch',
  },
  { service: ANALYTICS, text: () => 'Подскажите, вы работаете с клиентами из Харькова удалённо? Нужна аналитика по рекламе, созвониться можем в Zoom.', note: 'a remote analytics request from Kharkiv' },
  {
    service: '',
    company: 'Happy Pet',
    text: () =>
      'Добрый день.\n\nМы производим корма для животных, продаём через зоомагазины и маркетплейсы. Своего маркетинга почти нет, сайт сделан три года назад и с тех пор не обновлялся.\n\nХотим выстроить нормальную систему: контент в соцсетях, реклама на конечного покупателя и отдельно работа с дистрибьюторами. Понимаем, что это не за один месяц.\n\nГотовы встретиться и обсудить, можем приехать к вам в офис. Напишите, когда удобно.',
    note: 'a long brief from a pet-food maker',
  },
  { service: SMM, text: () => 'Интересует ведение страницы в Facebook для частной школы, публикаций немного, 2–3 в неделю.', note: 'a private school wants a Facebook page run' },
  { service: CONTENT, text: () => 'Здравствуйте! Нужен контент-план и тексты для Telegram-канала юридической компании. Это к вам?', note: 'a law firm wants a Telegram channel written' },
];

const EN_HANDWRITTEN: readonly Handwritten[] = [
  { service: SMM, text: () => 'Hi, do you offer social media management in Ukrainian and English? We are a small café chain from Kraków opening in Lviv.', note: 'a Kraków café chain opening in Lviv' },
  { service: ANALYTICS, text: () => 'Hello, we need a website audit and an analytics setup (GA4 + Google Tag Manager). Could you share your rates?', note: 'a short audit and analytics request' },
  {
    service: LEADS,
    company: 'Nordhus Modular',
    text: (person) =>
      `Dear team,\n\nI represent a Danish company that makes modular houses. We have started working with a distributor in Kyiv and would like to support them with marketing in Ukraine, mainly lead generation among private customers in the Kyiv region.\n\nCould you tell us how you would approach this, what budget you would recommend for the first three months and what reporting we could expect? We would prefer to communicate in English.\n\nBest regards,\n${person.first} ${person.last}`,
    note: 'a long brief from a Danish modular-house maker',
  },
  { service: SMM, text: () => "We're a charity running summer camps for children from frontline regions and need help telling our story on Instagram. Do you do pro bono or discounted work?", note: 'a charity asks for pro bono help' },
  { service: '', text: () => 'Looking for an agency to run a product launch campaign in Ukraine for a new electric scooter brand. Timeline: May to June.', note: 'an e-scooter launch' },
  { service: CONTENT, text: () => 'Hi! Quick question: can you help us translate and adapt our English blog content for a Ukrainian audience?', note: 'a content localisation question' },
];

// Ukrainian with English terms and surzhyk: how marketers and founders actually talk.
const MIXED_MESSAGES: readonly Handwritten[] = [
  { service: SMM, text: () => 'Добрий день! Нам потрібен SMM для Instagram і TikTok, плюс хочемо нормальний KPI по заявках, а не просто охоплення. Бюджет на ads до 1000$.', note: 'SMM with KPI on leads' },
  { service: ANALYTICS, text: () => 'Привіт, у нас CRM Bitrix24, ліди з Google Ads падають туди без UTM-ок, і ми не бачимо ROI по кампаніях. Можете налаштувати аналітику?', note: 'CRM and Google Ads without UTM tags' },
  { service: SMM, text: () => 'Шо по ціні за ведення інсти і таргет? Нам треба шоб були заявки, а не лайки, короче результат по KPI', note: 'surzhyk price question' },
  { service: LEADS, text: () => 'Здрасті, хочу запустити performance-кампанію в Meta Ads на новий продукт, landing вже готовий, потрібен креатив і оптимізація по CPL.', note: 'performance campaign with CPL' },
  { service: ANALYTICS, text: () => 'Дивіться, в нас e-commerce на Shopify, conversion rate десь 0,8%, хочемо аудит воронки і ретаргетинг. Скільки це буде коштувати?', note: 'Shopify funnel audit' },
  { service: CONTENT, text: () => 'Нам потрібен контент для TikTok і Reels, приблизно 12 відео в місяць, з монтажем. Є бриф, можу скинути в Telegram.', note: 'short videos for TikTok and Reels' },
  { service: LEADS, text: () => 'Добрий день, шукаємо підрядника на lead generation для B2B, наш ICP — виробничі компанії від 50 співробітників, канали LinkedIn і email outreach.', note: 'B2B lead generation with an ICP' },
  { service: ANALYTICS, text: () => 'Хочемо dashboard в Looker Studio з даними з Google Ads, Meta і нашої CRM, щоб бачити ROAS по днях. Реально таке зробити?', note: 'a Looker Studio dashboard' },
  { service: '', text: () => 'Вітаю. Я фаундер стартапу, робимо mobile app для бігунів, треба go-to-market стратегія на Україну і перші 1000 юзерів.', note: 'a go-to-market strategy for an app' },
  { service: SMM, text: () => 'Короче, нам треба щоб інстаграм нормально вели, бо зараз там пости раз на місяць, і таргет на Київ. Бюджет є, давайте созвонимся.', note: 'surzhyk Instagram request' },
  { service: CONTENT, text: () => 'Hi, ми D2C бренд кави, треба email-маркетинг: welcome-серія, abandoned cart, реактивація. Зараз open rate 12%, хочемо хоча б 25.', note: 'e-mail marketing with English terms' },
  { service: SMM, text: () => 'Потрібен influencer marketing: підібрати 10–15 мікроблогерів у Instagram, домовитися про інтеграції і порахувати CPM. Ніша — дитячі товари.', note: 'influencer marketing request' },
];

// Hurried messages from phones: typos, no capitals, no punctuation, some in translit.
const TYPO_MESSAGES: readonly { readonly language: Language; readonly service: ServiceType | ''; readonly text: string }[] = [
  { language: 'uk', service: SMM, text: 'скільки коштує смм для кавярні' },
  { language: 'uk', service: SMM, text: 'dobryi den, potribno smm dlya salonu' },
  { language: 'uk', service: SMM, text: 'дрбрий день потрібна реклама в інсті для магазину одягу передзвоніть' },
  { language: 'uk', service: '', text: 'ціна на таргет?' },
  { language: 'ru', service: SMM, text: 'скока стоит ведение инсты' },
  { language: 'uk', service: LEADS, text: 'хочу заявки для стоматології шо по цінах' },
  { language: 'uk', service: ANALYTICS, text: 'добрий день цікавить аналітика сайта зателефонуйте після 18' },
  { language: 'uk', service: LEADS, text: 'privit skilky koshtuie reklama v google dlia avtoservisu' },
  { language: 'uk', service: SMM, text: 'потрібен сммщик на постійку для квіткового напишіть у вайбер' },
  { language: 'uk', service: SMM, text: 'а ви робите рекламу в тік ток? треба для барбершопу' },
  { language: 'ru', service: SMM, text: 'zdravstvuyte nuzhen targetolog dlya magazina obuvi' },
  { language: 'uk', service: '', text: 'можна прайс на ведення сторінок фб і інст' },
  { language: 'uk', service: SMM, text: 'терміново потрібна реклама до 8 березня квіти київ' },
  { language: 'uk', service: SMM, text: 'доьрий вечір. скільки буде коштувати налаштувати рекламу для курсів манікюру' },
  { language: 'uk', service: '', text: 'перезвоніть будь ласка щодо просування ресторану' },
  { language: 'uk', service: SMM, text: 'ви з малим бізнесом працюєте? в нас одна точка шаурми' },
];

// Phone numbers spelled every way people spell them, some of them mentioned in the message too.
const PHONE_MESSAGES: readonly { readonly language: Language; readonly phone: string; readonly service: ServiceType | ''; readonly text: string }[] = [
  { language: 'uk', phone: '+380 67 123 45 67', service: LEADS, text: 'Передзвоніть, будь ласка, після 14:00 — хочу обговорити рекламу для магазину сантехніки.' },
  { language: 'uk', phone: '067-214-38-90', service: SMM, text: 'Зручніше телефоном, пишу з роботи. Цікавить ведення Instagram для салону.' },
  { language: 'uk', phone: '(067) 552 17 43', service: SMM, text: 'Номер робочий, є Viber і Telegram. Потрібна консультація щодо таргету для школи танців.' },
  { language: 'uk', phone: '380677309128', service: ANALYTICS, text: 'Зателефонуйте, будь ласка, цікавить аудит реклами в Google.' },
  { language: 'uk', phone: '0504417265', service: SMM, text: 'Потрібна реклама для бригади покрівельників. Прошу передзвонити, а якщо не відповім — напишіть SMS, я на обʼєкті.' },
  { language: 'uk', phone: '+38 (050) 123-45-67', service: LEADS, text: 'Доброго дня, можна дзвінок завтра зранку? Хочемо обговорити лідогенерацію для автосалону.' },
  { language: 'uk', phone: '+48 512 345 678', service: LEADS, text: 'Я зараз у Польщі, тому номер польський. Бізнес в Україні — магазин автозапчастин у Рівному, потрібна реклама.' },
  { language: 'en', phone: '+1 (415) 555-0134', service: SMM, text: "Hi, this is a US number, WhatsApp works too. We'd like to discuss social media for our Ukrainian bakery in Chicago." },
  { language: 'uk', phone: '+380 (93) 405-11-28', service: CONTENT, text: 'Телефонуйте в будні з 9 до 18. Цікавить контент для сайту юридичної компанії.' },
  { language: 'uk', phone: '093 777 1204', service: ANALYTICS, text: 'Я на звʼязку в Telegram за цим номером, дзвінки можу пропустити. Потрібна аналітика для інтернет-магазину.' },
  { language: 'ru', phone: '+38 097 640 52 19', service: LEADS, text: 'Перезвоните, пожалуйста, по поводу рекламы для стоматологии.' },
  { language: 'uk', phone: '+49 151 23456789', service: SMM, text: 'Пишу з німецького номера, бо живу в Мюнхені, але бізнес у Києві — студія дизайну інтерʼєрів. Потрібен таргет на Київ.' },
  { language: 'uk', phone: '+380-66-301-44-82', service: SMM, text: 'Якщо не додзвонитеся на цей номер, ось другий: 050 765 43 21. Цікавить SMM для ресторану.' },
  { language: 'uk', phone: '8 (063) 410-22-15', service: SMM, text: 'Подзвоніть мені, будь ласка, треба реклама на сезон для прокату велосипедів.' },
  { language: 'en', phone: '+44 7700 900123', service: SMM, text: "Hello, I'm based in London and this is my UK mobile. We need help promoting Ukrainian language courses for kids." },
  { language: 'uk', phone: '+380 (73) 055 12 34', service: '', text: 'Передзвоніть, будь ласка. Хочу дізнатися ціну на ведення сторінок у соцмережах для магазину кераміки.' },
];

// Company names with quotes and apostrophes of every kind, typed into the company field and the message.
const QUOTED_COMPANIES: readonly { readonly language: Language; readonly company: string; readonly surname?: string; readonly service: ServiceType | ''; readonly text: string }[] = [
  { language: 'uk', company: 'ТОВ «Зелена Долина»', service: SMM, text: 'Добрий день! ТОВ «Зелена Долина» вирощує і продає ягоди та саджанці. Хочемо рекламу на садівників-аматорів перед весняним сезоном.' },
  { language: 'uk', company: 'ФОП "Петренко"', surname: 'Петренко', service: LEADS, text: 'Я ФОП, продаю запчастини для побутової техніки через сайт. Потрібна реклама в Google, щоб ішли замовлення, а не просто перегляди.' },
  { language: 'en', company: "O'Brien & Sons", service: '', text: "Hello, O'Brien & Sons is an Irish whiskey importer entering the Ukrainian market. We'd like to discuss a launch campaign for the autumn." },
  { language: 'uk', company: '„Смачна кава“', service: SMM, text: 'Ми мережа кавʼярень „Смачна кава“, сім точок у Києві. Шукаємо агенцію на SMM і акції для програми лояльності.' },
  { language: 'uk', company: "ТзОВ 'Агро-Світ'", service: LEADS, text: "Доброго дня! Пишу від ТзОВ 'Агро-Світ', ми дистрибутор засобів захисту рослин на заході України. Потрібна лідогенерація серед фермерів." },
  { language: 'uk', company: 'ПП «Дім & Сад»', service: CONTENT, text: 'Вітаю. ПП «Дім & Сад» — садовий центр у Черкасах. Потрібні статті для блогу про догляд за рослинами і розсилка для покупців.' },
  { language: 'uk', company: 'Ресторан «Бабусині вареники»', service: SMM, text: 'Добрий день, у нас ресторан «Бабусині вареники» на Подолі. Хочемо більше туристів і доставку через соцмережі.' },
  { language: 'uk', company: 'ГО "Серце Харкова"', service: SMM, text: 'Ми ГО "Серце Харкова", допомагаємо літнім людям у прифронтових районах. Потрібна допомога зі сторінками і збором коштів.' },
  { language: 'en', company: "Pizzeria 'Mamma Mia'", service: SMM, text: "Hi, I own Pizzeria 'Mamma Mia' in Lviv, an Italian place run by an Italian and a Ukrainian. We want more locals on weekday evenings." },
  { language: 'uk', company: 'ТОВ «Юридична фірма „Право і Ко“»', service: CONTENT, text: 'Доброго дня. Юридична фірма „Право і Ко“ шукає підрядника на експертні статті й пости в LinkedIn, 8–10 матеріалів на місяць.' },
  { language: 'uk', company: 'Студія "Світло & Тінь"', service: LEADS, text: 'Вітаю! Фотостудія "Світло & Тінь" у Дніпрі. Хочемо більше бронювань залу в будні, вихідні й так заповнені.' },
];

// One link to the visitor's own site or page: the kind of link a real client sends.
const OWN_SITE_MESSAGES: readonly { readonly language: Language; readonly service: ServiceType | ''; readonly text: string }[] = [
  { language: 'uk', service: LEADS, text: 'Добрий день! Наш сайт https://kava-lviv.com.ua, хочемо більше заявок на кейтеринг і корпоративні замовлення.' },
  { language: 'uk', service: LEADS, text: 'Вітаю, ми салон краси www.beautyroom.kyiv.ua — хочемо більше записів через сайт, зараз майже всі пишуть у директ.' },
  { language: 'uk', service: SMM, text: 'Ось наша сторінка instagram.com/flowers.odesa, хочемо більше замовлень на доставку квітів, особливо в будні.' },
  { language: 'uk', service: ANALYTICS, text: 'Доброго дня, наш сайт https://dentaplus.dp.ua. Реклама в Google є, але заявок мало. Можете подивитися, що не так?' },
  { language: 'uk', service: LEADS, text: 'Наш магазин: https://mebli-mriya.com.ua/ — хочемо більше заявок на кухні під замовлення, середній чек 80–120 тис. грн.' },
  { language: 'ru', service: LEADS, text: 'Здравствуйте, вот наш сайт https://okna-yug.com.ua, нужно больше заявок на замер.' },
  { language: 'en', service: LEADS, text: 'Hi, our shop is https://shop.lviv-ceramics.com.ua and we want more orders from abroad, mainly from the EU.' },
  { language: 'uk', service: LEADS, text: 'Добрий вечір. Ми зоомагазин у Луцьку, сайт zoo-lutsk.com.ua. Хочемо, щоб більше людей записувалися на грумінг.' },
  { language: 'uk', service: SMM, text: 'Сторінка нашої студії йоги: https://www.instagram.com/yoga.kharkiv/ — хочемо більше людей на ранкові заняття.' },
  { language: 'uk', service: LEADS, text: 'Ми сироварня, ось сайт https://syrovarnia-vorskla.com.ua. Хочемо більше оптових заявок від магазинів і ресторанів.' },
  { language: 'uk', service: LEADS, text: 'Готель https://smereka-hotel.com.ua, хочемо більше прямих бронювань замість Booking.' },
  { language: 'uk', service: LEADS, text: 'Наш сайт www.codekids.com.ua, хочемо більше записів на пробний урок перед вереснем.' },
  { language: 'uk', service: '', text: 'Добрий день, ось наш профіль на Prom: https://prom.ua/c3456789-kovani-vyroby.html — кування на замовлення. Хочемо більше замовлень, можливо, власний сайт і рекламу.' },
  { language: 'en', service: LEADS, text: 'Hello, our website is https://www.borsch-chicago.com and we want more catering orders from the Ukrainian community.' },
  { language: 'uk', service: SMM, text: 'Привіт! Ось наш тікток tiktok.com/@barber.kyiv, хочемо, щоб із нього приходили записи, а не лише перегляди.' },
  { language: 'uk', service: LEADS, text: 'Наш інтернет-магазин https://littlebee.com.ua — хочемо більше заявок на опт від дитячих магазинів.' },
];

// Job applications: résumés of people who want the three vacancies (some send none).

const UK_RESUME: {
  readonly openings: readonly string[];
  readonly experience: Record<Position, readonly Gendered[]>;
  readonly skills: readonly Gendered[];
  readonly tails: readonly Gendered[];
} = {
  openings: ['Добрий день!', 'Вітаю!', 'Доброго дня, хочу відгукнутися на вакансію.', 'Добрий день, пишу щодо вакансії.'],
  experience: {
    support: [
      { f: 'Два роки працювала операторкою контакт-центру інтернет-провайдера: вхідні дзвінки, чати, заявки в Jira.', m: 'Два роки працював оператором контакт-центру інтернет-провайдера: вхідні дзвінки, чати, заявки в Jira.' },
      { f: 'Зараз працюю адміністраторкою в приватній клініці, щодня спілкуюся з пацієнтами телефоном і в месенджерах.', m: 'Зараз працюю адміністратором у приватній клініці, щодня спілкуюся з пацієнтами телефоном і в месенджерах.' },
      { f: 'Три роки в підтримці сервісу доставки їжі, останній рік — старша зміни.', m: 'Три роки в підтримці сервісу доставки їжі, останній рік — старший зміни.' },
      { f: 'Була менеджеркою з обслуговування клієнтів у банку, вмію спокійно говорити з незадоволеними людьми.', m: 'Був менеджером з обслуговування клієнтів у банку, вмію спокійно говорити з незадоволеними людьми.' },
      { f: 'Півтора року відповідала на звернення покупців маркетплейсу: повернення, обміни, скарги.', m: 'Півтора року відповідав на звернення покупців маркетплейсу: повернення, обміни, скарги.' },
    ],
    smm: [
      { f: 'Веду Instagram двох кавʼярень і магазину кераміки, сама знімаю Reels і монтую в CapCut.', m: 'Веду Instagram двох кавʼярень і магазину кераміки, сам знімаю Reels і монтую в CapCut.' },
      { f: 'Працювала SMM-менеджеркою в ресторанному холдингу: контент-план, модерація, звіти по охопленнях.', m: 'Працював SMM-менеджером у ресторанному холдингу: контент-план, модерація, звіти по охопленнях.' },
      { f: 'Закінчила курс SMM, маю портфоліо з трьох навчальних і двох реальних проєктів.', m: 'Закінчив курс SMM, маю портфоліо з трьох навчальних і двох реальних проєктів.' },
      'Рік на фрилансі: веду сторінки салонів краси, працюю в Canva і Meta Business Suite, трохи налаштовую таргет.',
      { f: 'Адмініструвала телеграм-канал міського медіа на 40 тисяч підписників.', m: 'Адміністрував телеграм-канал міського медіа на 40 тисяч підписників.' },
    ],
    sales: [
      { f: 'Чотири роки в B2B-продажах обладнання для HoReCa, план виконувала стабільно.', m: 'Чотири роки в B2B-продажах обладнання для HoReCa, план виконував стабільно.' },
      { f: 'Продавала рекламу на місцевому радіо, маю базу контактів серед бізнесу міста.', m: 'Продавав рекламу на місцевому радіо, маю базу контактів серед бізнесу міста.' },
      'Зараз менеджер з продажу в IT-аутсорсі, веду угоди в HubSpot від першого дзвінка до підписання.',
      { f: 'Маю досвід холодних дзвінків і зустрічей із власниками малого бізнесу, вела CRM у Pipedrive.', m: 'Маю досвід холодних дзвінків і зустрічей із власниками малого бізнесу, вів CRM у Pipedrive.' },
      'Три роки продаю страхові продукти, вмію працювати із запереченнями.',
    ],
  },
  skills: [
    'Англійська — B1, читаю й листуюся вільно.',
    'Грамотно пишу українською.',
    'Впевнено користуюся Google Таблицями, Notion і Trello.',
    'Маю вищу освіту (маркетинг, КНЕУ).',
    { f: 'Добре переношу навантаження в сезон, працювала у змінному графіку.', m: 'Добре переношу навантаження в сезон, працював у змінному графіку.' },
  ],
  tails: [
    'Можу вийти на роботу з наступного понеділка.',
    { f: 'Готова виконати тестове завдання.', m: 'Готовий виконати тестове завдання.' },
    'Портфоліо надішлю на запит.',
    'Цікавить повна зайнятість, розглядаю гібридний формат.',
    'Шукаю команду, де можна рости.',
    'Резюме з повним досвідом можу надіслати на пошту.',
  ],
};

const UK_CITIES = ['Київ', 'Львів', 'Харків', 'Дніпро', 'Одеса', 'Віддалено', 'Київ, Оболонь', 'Вінниця', 'Ірпінь', 'Запоріжжя', 'Полтава', 'Чернівці', 'Біла Церква'] as const;

function ukResume(person: Person, position: Position): string {
  return distinct(() => {
    const [first, second] = shuffle(UK_RESUME.experience[position]);
    const experience = [first, chance(0.4) ? second : undefined].filter((line): line is Gendered => line !== undefined).map((line) => say(line, person));
    const skills = shuffle(UK_RESUME.skills).slice(0, between(0, 2)).map((line) => say(line, person));
    const tails = shuffle(UK_RESUME.tails).slice(0, between(1, 2)).map((line) => say(line, person));
    const opening = chance(0.6) ? [pick(UK_RESUME.openings)] : [];
    return chance(0.5) ? [...opening, ...experience, ...skills, ...tails].join(' ') : [[...opening, ...experience].join(' '), [...skills, ...tails].join(' ')].join('\n\n');
  });
}

/** Résumés written out in Russian and English. */
const WRITTEN_RESUMES: readonly { readonly language: Language; readonly gender?: Gender; readonly position: Position; readonly city: string; readonly text: string }[] = [
  { language: 'ru', gender: 'm', position: 'support', city: 'Харьков', text: 'Здравствуйте! Работаю оператором call-центра в службе такси 2 года, до этого был продавцом-консультантом. Спокойно общаюсь с людьми, быстро печатаю. Готов выйти на стажировку.' },
  { language: 'ru', position: 'smm', city: 'Одесса', text: 'Веду страницы в Instagram и TikTok для нескольких локальных брендов (одежда, кофейня). Умею снимать и монтировать видео, делаю контент-планы и отчёты. Ссылки на портфолио пришлю по запросу.' },
  { language: 'ru', gender: 'f', position: 'sales', city: 'Днепр', text: 'Опыт в продажах 5 лет: сначала розница, потом B2B (упаковка, логистика). Последний год руководила отделом из 4 человек. Ищу проект, где можно расти.' },
  { language: 'ru', gender: 'f', position: 'support', city: 'Киев', text: 'Работала администратором в гостинице, общаюсь на украинском, русском и английском. Умею решать конфликтные ситуации, аккуратно веду документы.' },
  { language: 'ru', gender: 'f', position: 'smm', city: 'удалённо', text: 'Закончила курсы SMM, есть учебные проекты и один реальный — страница салона красоты. Хочу развиваться в агентстве.' },
  { language: 'ru', gender: 'm', position: 'sales', city: 'Запорожье', text: 'Продаю IT-услуги 3 года, работал с клиентами из Украины и Польши, CRM — Pipedrive, Bitrix24. Английский Upper-Intermediate.' },
  { language: 'ru', position: 'support', city: 'Николаев', text: 'Добрый день. Есть опыт работы в поддержке интернет-магазина электроники: чаты, звонки, возвраты. Могу работать в сменном графике.' },
  { language: 'ru', position: 'sales', city: 'Харьков', text: 'Здравствуйте, интересует вакансия менеджера. Опыт — продажа недвижимости, 2 года. Быстро обучаюсь, есть своё авто.' },
  { language: 'en', position: 'smm', city: 'Lviv', text: 'I have managed social media for a boutique hotel and a craft brewery for two years, including content planning, Reels production and monthly reporting. I speak Ukrainian, English and some Polish.' },
  { language: 'en', position: 'sales', city: 'Kyiv', text: 'Sales professional with six years of B2B experience in SaaS and logistics. I have worked with clients in Ukraine, Poland and Germany and consistently met quarterly targets. Happy to work remotely or from the Kyiv office.' },
  { language: 'en', position: 'support', city: 'Remote', text: 'Customer support specialist (3 years, e-commerce). Comfortable with Zendesk, Freshdesk and live chat; average CSAT 4.8 out of 5. Ukrainian native, English C1.' },
  { language: 'en', position: 'smm', city: 'Kyiv', text: 'Recent marketing graduate (Kyiv-Mohyla Academy). I ran the student union Instagram, grew it from 1,200 to 6,000 followers and organised two giveaways with local brands.' },
  { language: 'en', position: 'sales', city: 'Warsaw, remote', text: 'I returned to Ukraine after four years in Warsaw, where I worked as an account manager at a digital agency. I would love to bring that experience to your team.' },
  { language: 'en', position: 'support', city: 'Kharkiv', text: 'Hi! I am a final-year student looking for a full-time role. I worked part-time in a call centre for an energy company and volunteered on a hotline for displaced people.' },
  { language: 'en', position: 'smm', city: 'Odesa', text: 'Content creator and community manager. Portfolio available on request; I can start in two weeks.' },
  { language: 'en', position: 'sales', city: 'Dnipro', text: 'Hello, a short summary: 3 years in advertising sales at a regional TV channel, strong negotiation skills, driving licence. CV available on request.' },
];

// ---------------------------------------------------------------------------------------------
// The humans. Each is drafted first (what was typed); how it was sent is decided for all of them
// together, so that exactly the planned number post with scripts off and five pairs share an office.

interface HumanDraft {
  readonly kind: HumanKind;
  readonly language: Language;
  readonly form: CorpusForm;
  readonly fields: ContactMessage | JobApplication;
  /** What the note says, before the delivery is added. */
  readonly note: string;
}

const LANGUAGE_NOTE: Record<Language, string> = { uk: 'Ukrainian', ru: 'Russian', en: 'English' };

function humanContact(kind: HumanKind, language: Language, person: Person, inquiry: { message: string; service: ServiceType | ''; company?: string; domain?: string; phone?: string }, note: string): HumanDraft {
  return {
    kind,
    language,
    form: 'contact',
    fields: {
      name: nameField(person),
      email: personalEmail(person, language, inquiry.domain),
      phone: inquiry.phone ?? humanPhone(language),
      company: inquiry.company ?? '',
      service_type: inquiry.service,
      message: inquiry.message,
    },
    note,
  };
}

function handwrittenDrafts(kind: HumanKind, language: Language, messages: readonly Handwritten[], label: string): HumanDraft[] {
  return messages.map((written) => {
    const person = newPerson(language, written.gender);
    return humanContact(kind, language, person, { message: claim(written.text(person)), service: written.service, company: written.company }, `${label}: ${written.note}`);
  });
}

function composedDrafts(kind: HumanKind, pack: InquiryPack, count: number): HumanDraft[] {
  return Array.from({ length: count }, () => {
    const person = newPerson(pack.language);
    const inquiry = composeInquiry(pack, person);
    return humanContact(kind, pack.language, person, inquiry, `${LANGUAGE_NOTE[pack.language]} inquiry about ${SERVICE_NOTE[inquiry.service]}, ${inquiry.shape}`);
  });
}

function jobDrafts(): HumanDraft[] {
  const positions = cycler(['support', 'smm', 'sales'] as const);
  const ukrainian = Array.from({ length: 24 }, (_, index) => {
    const person = newPerson('uk');
    const position = positions();
    // Six applicants leave the résumé empty: the form does not ask for it.
    const resume = index % 4 === 3 ? '' : ukResume(person, position);
    return { language: 'uk' as const, person, position, city: pick(UK_CITIES), resume };
  });
  const written = WRITTEN_RESUMES.map((resume) => ({ language: resume.language, person: newPerson(resume.language, resume.gender), position: resume.position, city: resume.city, resume: claim(resume.text) }));
  return [...ukrainian, ...written].map(({ language, person, position, city, resume }) => ({
    kind: 'job' as const,
    language,
    form: 'job-application' as const,
    fields: { name: `${person.first} ${person.last}`, email: personalEmail(person, language), phone: humanPhone(language), city, position: POSITION_TITLES[position], resume_text: resume },
    note: `${LANGUAGE_NOTE[language]} application for ${position}${resume === '' ? ', résumé left empty' : ''}`,
  }));
}

function humanDrafts(): HumanDraft[] {
  const uk = [...handwrittenDrafts('uk', 'uk', UK_HANDWRITTEN, 'Ukrainian inquiry'), ...composedDrafts('uk', UK_PACK, HUMAN_KIND_MINIMUMS.uk - UK_HANDWRITTEN.length)];
  const ru = [...handwrittenDrafts('ru', 'ru', RU_HANDWRITTEN, 'Russian inquiry'), ...composedDrafts('ru', RU_PACK, HUMAN_KIND_MINIMUMS.ru - RU_HANDWRITTEN.length)];
  const en = [...handwrittenDrafts('en', 'en', EN_HANDWRITTEN, 'English inquiry'), ...composedDrafts('en', EN_PACK, HUMAN_KIND_MINIMUMS.en - EN_HANDWRITTEN.length)];
  const mixed = handwrittenDrafts('mixed', 'uk', MIXED_MESSAGES, 'Ukrainian with English terms');
  const typos = TYPO_MESSAGES.map((typed) => {
    const person = newPerson(typed.language);
    const draft = humanContact('typos', typed.language, person, { message: claim(typed.text), service: typed.service, phone: ukrainianPhone(pick(['0671234567', '380671234567', '067 123 4567'])) }, 'hurried message from a phone, no capitals or punctuation');
    // Someone in a hurry types the name as it comes: lower case, or in Latin letters.
    const name = chance(0.5) ? person.first.toLowerCase() : chance(0.5) ? person.latinFirst : person.first;
    return { ...draft, fields: { ...draft.fields, name } };
  });
  const phones = PHONE_MESSAGES.map((call) => humanContact('phones', call.language, newPerson(call.language), { message: claim(call.text), service: call.service, phone: call.phone }, `asks for a call, phone written as ${call.phone}`));
  const quoted = QUOTED_COMPANIES.map((quoted) =>
    humanContact('quoted-company', quoted.language, newPerson(quoted.language, undefined, quoted.surname), { message: claim(quoted.text), service: quoted.service, company: quoted.company }, `company name with quotes: ${quoted.company}`),
  );
  const ownSite = OWN_SITE_MESSAGES.map((site) => humanContact('own-site-link', site.language, newPerson(site.language), { message: claim(site.text), service: site.service }, 'links once to their own site or page and wants more leads'));
  return [...uk, ...ru, ...en, ...mixed, ...typos, ...phones, ...quoted, ...ownSite, ...jobDrafts()];
}

const HUMAN_ID_SLUGS: Record<HumanKind, string> = {
  uk: 'uk',
  ru: 'ru',
  en: 'en',
  mixed: 'mixed',
  typos: 'typos',
  phones: 'phones',
  'quoted-company': 'quoted',
  'own-site-link': 'own-site',
  job: 'job',
};

/** How long a person spends on the page: reading, typing the form, and now and then leaving and coming back. */
function humanFillSeconds(typedCharacters: number): number {
  const reading = between(15, 90);
  const typing = Math.round(typedCharacters / decimal(2, 6, 2));
  const otherFields = between(15, 45);
  const seconds = Math.min(900, Math.max(25, reading + typing + otherFields));
  // One in ten opens the form, goes to a meeting or lunch, and finishes within two hours.
  return chance(0.1) ? seconds + between(900, 6000) : seconds;
}

interface Timed {
  readonly at: number;
  readonly entry: CorpusEntry;
}

function buildHumans(): Timed[] {
  const drafts = humanDrafts();
  const counters = new Map<HumanKind, number>();
  const noScript = new Set(shuffle(drafts.map((_, index) => index)).slice(0, 60));
  const entries = drafts.map((draft, index): CorpusEntry => {
    const number = (counters.get(draft.kind) ?? 0) + 1;
    counters.set(draft.kind, number);
    const channel = noScript.has(index) ? 'no-script' : 'script';
    const typed = draft.form === 'contact' ? (draft.fields as ContactMessage).message : (draft.fields as JobApplication).resume_text;
    return {
      id: `human-${HUMAN_ID_SLUGS[draft.kind]}-${String(number).padStart(3, '0')}`,
      who: 'human',
      kind: draft.kind,
      form: draft.form,
      fields: draft.fields,
      delivery: {
        channel,
        token: 'page',
        fillSeconds: humanFillSeconds(typed.length + 40),
        pow: channel === 'script' ? 'solved' : 'none',
        address: humanAddress(),
        userAgent: pick(channel === 'script' ? HUMAN_USER_AGENTS : NO_SCRIPT_USER_AGENTS),
      },
      note: `${draft.note}${channel === 'no-script' ? ' (scripts off)' : ''}`,
    };
  });
  // Five pairs of colleagues write from one office: behind its NAT they share an address.
  const colleagues = shuffle(entries).slice(0, 10);
  for (let index = 0; index < colleagues.length; index += 2) {
    const [first, second] = [colleagues[index], colleagues[index + 1]];
    if (first === undefined || second === undefined) continue;
    second.delivery.address = first.delivery.address;
    second.note = `${second.note}; same office address as ${first.id}`;
  }
  return entries.map((entry) => ({ at: random(), entry }));
}

// ---------------------------------------------------------------------------------------------
// Spam: what bots type. Their senders' names, addresses and phones are made up the way spam
// tools make them up.

const SPAM_NAMES = [
  'Jessica Miller', 'Mike Anderson', 'RobertRuch', 'Jamesjoize', 'HenryNiz', 'Crytpo Bonus', 'SEO Expert', 'Olivia Wilson', 'David Smith', 'Emily Jones',
  'Anna Manager', 'Олег', 'Марія SEO', 'Менеджер Ігор', 'Admin', 'Best Casino', 'Lucas', 'Sophia Brown', 'JosephCoast', 'Williamcon', 'Kevin Taylor',
  'Alexandr', 'Дмитрий', 'Nataliya', 'Eric Jones', 'Mark Wilson', 'Tina', 'Binance Support',
] as const;
const SPAM_MAIL_DOMAINS = ['gmail.com', 'outlook.com', 'hotmail.com', 'mail.ru', 'yandex.ru', 'gmx.com', 'aol.com', 'yahoo.com', 'proton.me', 'inbox.lv', 'seo-boost.top', 'rank-first.xyz'] as const;
const SPAM_COMPANIES = ['', '', '', 'SEO Agency', 'Google Partner Ltd', 'Digital Growth LLC', 'Crypto Invest Group', 'Casino Online', 'Best Backlinks', 'Marketing Pro', 'Web Solutions Inc.', 'Компанія', 'test'] as const;
/** Bots choose the first option or none more often than a person would. */
const SPAM_SERVICE_CHOICES: readonly (ServiceType | '')[] = ['', '', SMM, SMM, CONTENT, LEADS, ANALYTICS];
const SPAM_PHONES: readonly (() => string)[] = [
  () => `+1 202 555 01${digitString(2)}`,
  () => `8 (9${digitString(2)}) ${digitString(3)}-${digitString(2)}-${digitString(2)}`,
  () => `+7 9${digitString(2)} ${digitString(3)} ${digitString(2)} ${digitString(2)}`,
  () => '1234567',
  () => `+44 20 7946 0${digitString(3)}`,
  () => ukrainianPhone(),
  () => `+91 98${digitString(3)} ${digitString(5)}`,
  () => '0000000',
  () => `+${digitString(11)}`,
];

interface Sender {
  readonly name: string;
  readonly email: string;
  readonly phone: string;
  readonly company: string;
}

function spamSender(name: string = pick(SPAM_NAMES)): Sender {
  const local = toLatin(name, 'uk') || 'user';
  return { name, email: uniqueEmail(`${local}${between(1, 9999)}`, pick(SPAM_MAIL_DOMAINS)), phone: pick(SPAM_PHONES)(), company: pick(SPAM_COMPANIES) };
}

function spamContact(message: string, sender: Sender = spamSender()): ContactMessage {
  return { name: sender.name, email: sender.email, phone: sender.phone, company: sender.company, service_type: pick(SPAM_SERVICE_CHOICES), message };
}

function spamApplication(resume: string, sender: Sender = spamSender()): JobApplication {
  return { name: sender.name, email: sender.email, phone: sender.phone, city: pick(['test', 'New York', 'Kyiv', 'Київ', 'London', 'Remote', 'Moscow']), position: pick(VACANCY_TITLES), resume_text: resume };
}

// Links as spam tools write them: full URLs, bare domains, BBCode and HTML anchors.
const SPAM_DOMAINS = [
  'seo-boost.top', 'rank-first.xyz', 'backlinks-pro.shop', 'crypto-yield.click', 'casino-slots777.win', 'bestfollowers.store', 'guestpost-hub.net',
  'linkfarm-seo.online', 'traffic-surge.site', 'top1google.pro', 'bonus-vegas.bet', 'btc-double.cc', 'dr90-links.info', 'webtraffic4u.biz',
  'instafollow.fun', 'forex-signal.vip', 'pharma-discount.top', 'smm-panel-cheap.ru',
] as const;
const SPAM_PATHS = ['', 'prices', 'backlinks-packages', 'go/seo', 'bonus', 'register?ref=7781', 'landing/ua', 'order.php', 'free-audit', 'vip', 'offer/2025'] as const;
const SPAM_ANCHORS = ['cheap seo', 'buy backlinks', 'best casino', 'crypto bonus', 'rank #1 on Google', 'guest post', 'buy followers', 'click here', 'купити посилання', 'казино онлайн', 'подробнее'] as const;
const LINK_STYLES = ['https', 'https', 'http', 'bare', 'bbcode', 'html'] as const;

function spamLink(style: (typeof LINK_STYLES)[number] = pick(LINK_STYLES)): string {
  const domain = pick(SPAM_DOMAINS);
  const path = pick(SPAM_PATHS);
  switch (style) {
    case 'https':
      return `https://${domain}/${path}`;
    case 'http':
      return `http://${domain}/?ref=${between(100, 99999)}`;
    case 'bare':
      return domain;
    case 'bbcode':
      return `[url=https://${domain}/${path}]${pick(SPAM_ANCHORS)}[/url]`;
    case 'html':
      return `<a href="https://${domain}/${path}">${pick(SPAM_ANCHORS)}</a>`;
  }
}

/** Link offers: `{links}` becomes a run of links. */
const LINK_SPAM_TEMPLATES = [
  'Hello! We offer high quality backlinks from DA 50+ websites. Rank #1 on Google in 30 days or your money back.\n{links}',
  'Dear website owner, I noticed your site is not on the first page of Google. Our team can fix it quickly. Prices and portfolio: {links}',
  'Guest post opportunity! Publish your article on 200+ high authority blogs with dofollow links: {links}',
  'Buy real Instagram followers and likes, cheap and fast, no password needed {links}',
  'Earn passive income with our AI crypto trading bot, 3% daily profit guaranteed. Register now: {links}',
  'Best online casino 2025 — 200% welcome bonus + 100 free spins!!! {links}',
  'Вітаю! Пропонуємо вічні посилання з трастових сайтів. Виведемо ваш сайт у ТОП-10 Google, гарантія результату. Прайс і приклади: {links}',
  'Здравствуйте! Прогон сайта по 5000 каталогам, рост позиций и трафика. Подробнее тут {links}',
  'Hi, I am Jessica from a digital agency. We write guest posts with a dofollow link for your blog. Samples: {links}',
  'cheap seo backlinks rank #1 on google {links}',
  'casino online slots jackpot bonus {links}',
  'Get 10,000 real visitors to your website for only $9.99! Limited offer {links}',
  'Купити підписників в Instagram недорого — живі українські акаунти, гарантія 30 днів {links}',
  'Is your website ranking? Get a free SEO audit today, our clients grow traffic by 300%. {links}',
  'Bitcoin price is going up! Double your BTC in 24 hours with our verified platform {links}',
] as const;

function linkSpam(minLinks: number, maxLinks: number): { message: string; links: number } {
  const links = between(minLinks, maxLinks);
  const separator = pick([' ', '\n', ' | ', '\n\n']);
  const block = Array.from({ length: links }, () => spamLink()).join(separator);
  return { message: pick(LINK_SPAM_TEMPLATES).replace('{links}', block), links };
}

// Classic spam phrases with no link at all.
const SPAM_PHRASES = [
  'Hello, We can increase your website traffic and sales with our proven SEO services at affordable price. Reply to this message for a free quote.',
  'Hi, I am interested in publishing a guest post on your website. What is your price for a dofollow article with 2 backlinks?',
  'We sell high DA backlinks, 1000 links for only $49. Improve your ranking today. Contact us by email.',
  'Earn $5000 weekly from home with our crypto investment platform. No experience needed, withdraw anytime.',
  'Get 500% casino bonus on your first deposit, play slots and win real money every day!',
  'Bitcoin doubling program: send 0.1 BTC and receive 0.2 BTC within 24 hours. 100% legit.',
  'Premium forex signals with 95% accuracy. Join our VIP group and make profit every day.',
  'Buy viagra and cialis online without prescription, discreet delivery worldwide, best price.',
  'Розкрутка сайту в топ за 3 дні! Гарантія результату, оплата після виходу в ТОП. Пишіть на пошту.',
  'Заробіток без вкладень від 2000 грн на день, працюй з телефону. Деталі у відповідь на лист.',
  'Ставки на спорт з гарантованим прибутком — договірні матчі, 100% прохідність. Пишіть у телеграм.',
  'Казино бонус 200% на перший депозит і 100 фріспінів! Реєструйся та вигравай уже сьогодні.',
  'SEO services at affordable price! First page of Google guaranteed, monthly packages from $99.',
  'Hello, I am a professional SEO expert. I will fix all errors on your website and bring it to the top 10. Can I send you a proposal?',
  'Dear Sir/Madam, we offer crypto investment with 30% monthly returns. Our managers will call you back.',
  'Раскрутка сайта в топ Google за 3 дня, недорого, гарантия. Ответьте на это письмо.',
  'Заработок без вложений от 5000 гривен в день, работа на дому. Подробности в ответном письме.',
  'Want more followers? We provide real Instagram followers, likes and views at the lowest price on the market.',
  'Looking for guest post opportunities on your site. We pay $50 per article with backlinks. Interested?',
  'Кращі ставки на спорт і казино бонус для нових гравців, виплати без затримок, працюємо з 2015 року.',
  'Investment opportunity: bitcoin mining pool with daily payouts. Minimum deposit $100, earn $5000 weekly.',
] as const;

// Languages the agency does not expect, with senders named the way those spam tools name them.
const FOREIGN_SPAM: readonly { readonly language: string; readonly name: string; readonly phone: string; readonly text: string }[] = [
  { language: 'Spanish', name: 'Carlos Martínez', phone: '+34 612 345 678', text: 'Hola, somos una agencia de posicionamiento web. Podemos llevar su sitio a la primera página de Google en solo 30 días con nuestros paquetes de enlaces.' },
  { language: 'Spanish', name: 'Lucía Fernández', phone: '+34 699 112 233', text: 'Gana dinero desde casa con el mejor casino en línea de 2025: bono de bienvenida del 200 % y giros gratis todos los días.' },
  { language: 'Spanish', name: 'Marketing Latino', phone: '+52 55 1234 5678', text: 'Estimado propietario, ofrecemos artículos patrocinados en más de 300 blogs de alta autoridad a precios increíbles. Responda para recibir la lista.' },
  { language: 'Portuguese', name: 'João Silva', phone: '+55 11 91234-5678', text: 'Olá! Aumente o tráfego do seu site com nossos serviços de SEO. Resultados garantidos ou devolvemos o seu dinheiro.' },
  { language: 'Portuguese', name: 'Ana Souza', phone: '+55 21 98765-4321', text: 'Invista em criptomoedas com o nosso robô de trading automático e receba lucros diários de até 5 %. Vagas limitadas!' },
  { language: 'Portuguese', name: 'Pedro Costa', phone: '+351 912 345 678', text: 'Prezado administrador, vendemos seguidores brasileiros reais para Instagram e TikTok com entrega imediata e preço baixo.' },
  { language: 'Vietnamese', name: 'Nguyễn Văn An', phone: '+84 912 345 678', text: 'Xin chào, chúng tôi cung cấp dịch vụ SEO tổng thể, đưa website của bạn lên top Google chỉ sau 2 tuần với chi phí thấp nhất.' },
  { language: 'Vietnamese', name: 'Trần Thị Mai', phone: '+84 987 654 321', text: 'Nhà cái uy tín số 1 châu Á, tặng ngay 100% tiền nạp lần đầu, rút tiền nhanh trong 5 phút. Đăng ký ngay hôm nay!' },
  { language: 'Indonesian', name: 'Budi Santoso', phone: '+62 812 3456 7890', text: 'Halo kak, kami menawarkan jasa backlink berkualitas tinggi dan artikel SEO untuk menaikkan peringkat website Anda di Google.' },
  { language: 'Indonesian', name: 'Slot Gacor', phone: '+62 857 1122 3344', text: 'Situs slot gacor terpercaya hari ini, deposit pulsa tanpa potongan, bonus new member 100% dan maxwin setiap hari.' },
  { language: 'Turkish', name: 'Mehmet Yılmaz', phone: '+90 532 123 45 67', text: 'Merhaba, web sitenizin Google sıralamasını yükseltmek için uygun fiyatlı SEO ve backlink paketleri sunuyoruz. Detaylar için yanıt verin.' },
  { language: 'Turkish', name: 'Bahis Destek', phone: '+90 555 987 65 43', text: "Türkiye'nin en güvenilir bahis sitesinde ilk yatırımınıza yüzde yüz bonus ve bedava dönüş fırsatını kaçırmayın!" },
  { language: 'Polish', name: 'Paweł Wiśniewski', phone: '+48 601 234 567', text: 'Dzień dobry, oferujemy pozycjonowanie stron i linki z mocnych portali. Gwarantujemy pierwszą stronę w Google w ciągu miesiąca.' },
  { language: 'Polish', name: 'Kasyno PL', phone: '+48 722 111 222', text: 'Najlepsze kasyno online w Polsce: bonus 300 zł na start i 50 darmowych spinów bez depozytu. Zarejestruj się dziś i wygrywaj!' },
  { language: 'Polish', name: 'Marta Zielińska', phone: '+48 533 765 432', text: 'Witam serdecznie, sprzedajemy artykuły sponsorowane na ponad 500 polskich blogach i portalach. Cennik wyślemy na życzenie.' },
  { language: 'Chinese', name: '王伟', phone: '+86 138 0013 8000', text: '您好！我们是专业的搜索引擎优化团队，提供外链建设、关键词排名和网站流量提升服务，保证三十天内让您的网站进入谷歌首页。价格优惠，欢迎随时联系我们洽谈合作。' },
  { language: 'Chinese', name: '李娜', phone: '+86 139 1234 5678', text: '澳门顶级线上娱乐城，首次存款即送百分之百奖金，每日返水无上限，提款五分钟到账，安全可靠，支持多种支付方式，立即注册领取您的新人礼包吧！' },
  { language: 'Arabic', name: 'Ahmed Hassan', phone: '+971 50 123 4567', text: 'مرحباً، نقدم خدمات تحسين محركات البحث وبناء الروابط الخلفية لرفع ترتيب موقعك في جوجل خلال ثلاثين يوماً بأسعار مناسبة.' },
  { language: 'Arabic', name: 'Crypto Arab', phone: '+966 55 123 4567', text: 'استثمر في العملات الرقمية مع منصتنا واحصل على أرباح يومية مضمونة تصل إلى عشرة بالمئة، سجل الآن فالأماكن محدودة.' },
  { language: 'Korean', name: '김민수', phone: '+82 10 1234 5678', text: '안녕하세요, 저희는 구글 상위 노출 전문 업체입니다. 고품질 백링크와 블로그 원고로 한 달 안에 귀사 웹사이트를 첫 페이지에 올려 드립니다.' },
];

/** Latin-script mailbox names for the foreign senders. */
const FOREIGN_MAIL_LOCALS = ['seo.latam', 'casino.es', 'blogs.patrocinados', 'trafego.seo', 'cripto.robo', 'seguidores.br', 'seo.vietnam', 'nhacai.vip', 'jasa.backlink', 'slot.gacor', 'seo.paketleri', 'bahis.bonus', 'pozycjonowanie', 'kasyno.bonus', 'artykuly.sponsorowane', 'seo.china', 'yule.vip', 'seo.arabia', 'crypto.profit', 'seo.korea'] as const;

// URLs and nothing else.
const URL_ONLY_MESSAGES = [
  'https://seo-boost.top/',
  'http://bit.ly/3xYz9Qa',
  'https://crypto-yield.click/ref?id=88213 https://crypto-yield.click/bonus',
  'casino-slots777.win',
  'https://t.me/seo_boost_ua',
  'https://backlinks-pro.shop/prices\nhttps://backlinks-pro.shop/order.php',
  'www.bonus-vegas.bet',
  '[url=https://top1google.pro/]https://top1google.pro/[/url]',
  'http://forex-signal.vip/?ref=4411',
  'https://bestfollowers.store https://instafollow.fun https://smm-panel-cheap.ru',
  'https://drive.google.com/file/d/1aB2cD3eF4gH5iJ6kL7mN8oP9/view?usp=sharing',
] as const;

// Plausible texts sent from throwaway mailboxes: generic, or quietly selling something.
const DISPOSABLE_DOMAINS = ['mailinator.com', 'guerrillamail.com', '10minutemail.com', 'yopmail.com', 'temp-mail.org', 'sharklasers.com', 'trashmail.com', 'getnada.com', 'dispostable.com', 'maildrop.cc'] as const;
const DISPOSABLE_CONTACT_TEXTS = [
  'Hi, interested in your services, please send a price list.',
  'Добрий день, надішліть прайс на всі послуги.',
  'Can you help with SEO for my website? Need the first page fast.',
  'Цікавить співпраця, напишіть на пошту, деталі там.',
  'We are looking for a long-term marketing partner. Please contact me by email only.',
  'Hello, how much is social media management per month? Need an answer today.',
  'Хочу дізнатися ціну на рекламу. Телефон не беру, пишіть на пошту.',
  'I have a business proposal for your company. Reply for details.',
  'Здравствуйте, интересует сотрудничество по партнёрской программе. Ответьте на почту.',
  'Do you offer white label SEO? We have many clients who need services.',
  'Please send your portfolio and rates, we have a project for you with a big budget.',
  'Пропоную співпрацю: маю клієнтів, яким потрібна реклама. Який у вас відсоток для партнерів?',
  'Hi! Quick question, do you accept payment in USDT or bitcoin?',
  'Потрібна реклама, бюджет великий, напишіть умови.',
] as const;
const DISPOSABLE_RESUMES = [
  'I am hard worker, ready to start immediately. Send me details and salary to my email.',
  'Досвід 10 років у всьому, готовий працювати. Напишіть умови на пошту.',
  'Hello HR, I am interested in this vacancy. Please send the job description and payment terms.',
  '',
  'Можу працювати віддалено з будь-якої країни, оплата в криптовалюті.',
  'Interested. Contact me.',
] as const;

// Three campaigns, each one text sent again and again from ever new names, mailboxes and addresses.
const CAMPAIGNS = [
  {
    language: 'en' as const,
    copies: 9,
    label: 'a "free video audit" SEO pitch',
    text: 'Hi there, I was checking your website and noticed a few issues that may be hurting your Google rankings. I can send you a short video audit for free — just reply "yes" and I will share it.',
  },
  {
    language: 'uk' as const,
    copies: 8,
    label: 'a sale of a contacts database',
    text: 'Добрий день! Пропонуємо бази клієнтів для вашого бізнесу: 150 000 актуальних контактів компаній України з телефонами та e-mail. Ціна від 990 грн. Відповідайте на цей лист.',
  },
  {
    language: 'ru' as const,
    copies: 8,
    label: 'a fake prize of free promotion',
    text: 'Здравствуйте! Ваш сайт участвует в розыгрыше: вы выиграли бесплатное продвижение на 3 месяца. Для активации свяжитесь с менеджером в Telegram @promo_manager_ua.',
  },
];

/** What a probing bot sends to see whether the form works. */
const PROBE_TEXTS = ['Тест', 'Тест', 'test', 'test', 'hello', 'hello', 'Перевірка', 'тест 123', 'Hi', 'Проверка связи', 'Test message, please ignore'] as const;
/** An ordinary-looking Ukrainian inquiry a bot posts again and again (no human sends it). */
const COPIED_INQUIRY = claim('Добрий день! Цікавить налаштування реклами в Instagram для нашого магазину. Підкажіть, будь ласка, вартість.');
/** Harmless-looking texts some token replays carry. */
const BLAND_TEXTS = [
  'Hello, please contact me.',
  'Добрий день, цікавить співпраця. Звʼяжіться зі мною.',
  'Hi, I want to order your service, call me back',
  'Здравствуйте, перезвоните мне пожалуйста',
  'Good day! Is this still available?',
] as const;

// ---------------------------------------------------------------------------------------------
// The bots, campaign by campaign.

const botCounters = new Map<string, number>();

function botId(slug: string): string {
  const number = (botCounters.get(slug) ?? 0) + 1;
  botCounters.set(slug, number);
  return `bot-${slug}-${String(number).padStart(3, '0')}`;
}

function bot(slug: string, kind: BotKind, form: CorpusForm, fields: ContactMessage | JobApplication, delivery: CorpusDelivery, note: string): CorpusEntry {
  return { id: botId(slug), who: 'bot', kind, form, fields, delivery, note };
}

/** A browser post with the page's token: the channel decides the proof of work unless told otherwise. */
function browserDelivery(channel: 'script' | 'no-script', fillSeconds: number, address: string, userAgent: string, pow?: CorpusDelivery['pow']): CorpusDelivery {
  return { channel, token: 'page', fillSeconds, pow: pow ?? (channel === 'script' ? 'solved' : 'none'), address, userAgent };
}

/** Places a campaign's entries in order between two points of the timeline (0: the first entry, 1: the last). */
function schedule(entries: readonly CorpusEntry[], from: number, to: number): Timed[] {
  return entries.map((entry, index) => ({ at: from + ((to - from) * (index + random())) / entries.length, entry }));
}

/** Programs posting straight to the API: no token, no proof of work, no browser headers. */
function directBots(): Timed[] {
  const servers = DIRECT_CLIENTS.map((client) => ({ ...client, address: botAddress() }));
  const entries: CorpusEntry[] = [];
  const direct = (fields: ContactMessage | JobApplication, form: CorpusForm, what: string) => {
    const server = pick(servers);
    const delivery: CorpusDelivery = { channel: 'direct', token: 'none', fillSeconds: 0, pow: 'none', address: server.address, userAgent: server.userAgent };
    entries.push(bot('direct', 'direct-no-token', form, fields, delivery, `${server.label} posts ${what} straight to the API, no token`));
  };
  // Twenty-five spammy posts: link offers, spam phrases, casino and crypto.
  for (let index = 0; index < 12; index += 1) direct(spamContact(linkSpam(1, 5).message), 'contact', 'a link offer');
  for (let index = 0; index < 10; index += 1) direct(spamContact(pick(SPAM_PHRASES)), 'contact', 'a spam phrase');
  for (let index = 0; index < 3; index += 1) direct(spamApplication(linkSpam(1, 3).message), 'job-application', 'links in the résumé field');
  // Fifteen harmless-looking probes and copies of an ordinary inquiry.
  for (const [index, text] of PROBE_TEXTS.entries()) {
    const sender = spamSender(pick(['test', 'Тест', 'Test Test', 'asd', 'hello', 'qwerty']));
    if (index === 2) direct(spamApplication(text, sender), 'job-application', `a «${text}» probe of the job form`);
    else direct(spamContact(text, { ...sender, company: '' }), 'contact', `a «${text}» probe`);
  }
  for (let index = 0; index < 4; index += 1) {
    const person = newPerson('uk');
    direct({ name: `${person.first} ${person.last}`, email: personalEmail(person, 'uk'), phone: ukrainianPhone(), company: '', service_type: SMM, message: COPIED_INQUIRY }, 'contact', 'a copy of an ordinary Ukrainian inquiry');
  }
  // Sent in four bursts, from whichever of its servers a run used.
  const bursts = [[0.04, 0.1], [0.33, 0.4], [0.61, 0.66], [0.86, 0.95]] as const;
  const shuffled = shuffle(entries);
  const size = Math.ceil(shuffled.length / bursts.length);
  return bursts.flatMap(([from, to], index) => schedule(shuffled.slice(index * size, (index + 1) * size), from, to));
}

/**
 * A token farm: five bot posts look like people (a real page, 20-60 s, proof of work solved) and
 * keep their tokens; later posts send those tokens again, with or without scripts.
 */
function tokenReplays(): Timed[] {
  const farm = Array.from({ length: 8 }, () => botAddress());
  const sources = Array.from({ length: BOT_KIND_MINIMUMS['captured-token-source'] }, (_, index) => {
    const fillSeconds = between(20, 60);
    const delivery = browserDelivery('script', fillSeconds, farm[index] ?? botAddress(), pick(BOT_BROWSER_USER_AGENTS));
    return bot('capture', 'captured-token-source', 'contact', spamContact(linkSpam(2, 4).message), delivery, 'a farm browser fills the form like a person and keeps the token');
  });
  // The first tokens are replayed most: 7, 6, 5, 4 and 3 times.
  const replayCounts = [7, 6, 5, 4, 3];
  const replays = shuffle(sources.flatMap((source, index) => Array.from({ length: replayCounts[index] ?? 0 }, () => source))).map((source) => {
    const channel = chance(0.7) ? 'script' : 'no-script';
    const fillSeconds = source.delivery.fillSeconds + between(60, 3000);
    const delivery: CorpusDelivery = {
      ...browserDelivery(channel, fillSeconds, chance(0.6) ? pick(farm) : botAddress(), chance(0.7) ? source.delivery.userAgent : pick(BOT_BROWSER_USER_AGENTS)),
      token: 'replayed',
      replayOf: source.id,
    };
    const bland = chance(0.3);
    const message = bland ? pick(BLAND_TEXTS) : chance(0.5) ? linkSpam(1, 3).message : pick(SPAM_PHRASES);
    return bot('replay', 'replayed-token', 'contact', spamContact(message), delivery, `sends the token of ${source.id} again with ${bland ? 'a harmless-looking text' : 'a spam offer'}`);
  });
  return [...schedule(sources, 0.02, 0.2), ...schedule(replays, 0.24, 0.98)];
}

/** A headless browser that fills the form in under a second: real token, solved proof of work. */
function headlessBots(): Timed[] {
  const machines = Array.from({ length: 6 }, (_, index) => ({ address: botAddress(), userAgent: index < 3 ? pick(HEADLESS_USER_AGENTS) : pick(BOT_BROWSER_USER_AGENTS) }));
  const entries = Array.from({ length: BOT_KIND_MINIMUMS['headless-fast'] }, (_, index) => {
    const machine = machines[index % machines.length] ?? { address: botAddress(), userAgent: HEADLESS_USER_AGENTS[0] };
    const delivery = browserDelivery('script', decimal(0.2, 0.9, 2), machine.address, machine.userAgent);
    const headless = machine.userAgent.includes('HeadlessChrome') ? 'a headless Chrome' : 'a headless browser with a normal Chrome user agent';
    if (index % 2 === 0) {
      // Half send what reads like a real inquiry: only the speed gives them away.
      const language = index % 4 === 0 ? 'uk' : 'en';
      const person = newPerson(language);
      const inquiry = composeInquiry(language === 'uk' ? UK_PACK : EN_PACK, person);
      const fields: ContactMessage = { name: `${person.first} ${person.last}`, email: personalEmail(person, language), phone: humanPhone(language), company: inquiry.company, service_type: inquiry.service, message: inquiry.message };
      return bot('headless', 'headless-fast', 'contact', fields, delivery, `${headless} sends a realistic ${LANGUAGE_NOTE[language]} inquiry in under a second`);
    }
    const message = chance(0.5) ? linkSpam(1, 4).message : pick(SPAM_PHRASES);
    return bot('headless', 'headless-fast', 'contact', spamContact(message), delivery, `${headless} sends spam in under a second`);
  });
  return [...schedule(entries.slice(0, 10), 0.14, 0.16), ...schedule(entries.slice(10, 20), 0.51, 0.53), ...schedule(entries.slice(20), 0.82, 0.84)];
}

/** Link offers sent the way a person sends a form. */
function linkBots(): Timed[] {
  const entries = Array.from({ length: BOT_KIND_MINIMUMS.links }, () => {
    const { message, links } = linkSpam(2, 8);
    const delivery = browserDelivery('script', between(20, 200), botAddress(), pick(BOT_BROWSER_USER_AGENTS));
    return bot('links', 'links', 'contact', spamContact(message), delivery, `an offer with ${links} links, sent at a human pace`);
  });
  return schedule(entries, 0, 1);
}

function urlOnlyBots(): Timed[] {
  const entries = URL_ONLY_MESSAGES.map((message) => {
    const channel = chance(0.6) ? 'script' : 'no-script';
    const delivery = browserDelivery(channel, between(15, 120), botAddress(), pick(BOT_BROWSER_USER_AGENTS));
    return bot('url-only', 'url-only', 'contact', spamContact(message), delivery, `a message of nothing but URLs${channel === 'no-script' ? ', posted as an HTML form' : ''}`);
  });
  return schedule(entries, 0.25, 0.75);
}

function foreignBots(): Timed[] {
  const entries = FOREIGN_SPAM.map((spam, index) => {
    const sender: Sender = { name: spam.name, email: uniqueEmail(`${FOREIGN_MAIL_LOCALS[index] ?? 'promo'}${between(1, 99)}`, pick(['gmail.com', 'outlook.com', 'yahoo.com', 'hotmail.com'])), phone: spam.phone, company: '' };
    const delivery = browserDelivery('script', between(25, 180), botAddress(), pick(BOT_BROWSER_USER_AGENTS));
    return bot('foreign', 'latin-foreign', 'contact', spamContact(spam.text, sender), delivery, `${spam.language} SEO, casino or crypto spam with a valid token`);
  });
  return schedule(shuffle(entries), 0, 1);
}

function phraseBots(): Timed[] {
  const entries = SPAM_PHRASES.map((message) => {
    const delivery = browserDelivery('script', between(25, 200), botAddress(), pick(BOT_BROWSER_USER_AGENTS));
    return bot('phrases', 'spam-phrases', 'contact', spamContact(message), delivery, 'classic spam phrases without a link, valid token and proof of work');
  });
  return schedule(shuffle(entries), 0, 1);
}

function disposableBots(): Timed[] {
  const domains = [...DISPOSABLE_DOMAINS, ...DISPOSABLE_DOMAINS];
  const texts: { form: CorpusForm; text: string }[] = [...DISPOSABLE_CONTACT_TEXTS.map((text) => ({ form: 'contact' as const, text })), ...DISPOSABLE_RESUMES.map((text) => ({ form: 'job-application' as const, text }))];
  const entries = shuffle(texts).map(({ form, text }, index) => {
    const language = chance(0.5) ? 'uk' : 'en';
    const person = newPerson(language);
    const domain = domains[index] ?? DISPOSABLE_DOMAINS[0];
    const sender: Sender = { name: `${person.first} ${person.last}`, email: uniqueEmail(`${person.latinFirst}${between(10, 999)}`, domain), phone: language === 'uk' ? ukrainianPhone() : pick(SPAM_PHONES)(), company: '' };
    const delivery = browserDelivery('script', between(30, 240), botAddress(), pick(BOT_BROWSER_USER_AGENTS));
    const fields = form === 'contact' ? spamContact(text, sender) : spamApplication(text, sender);
    return bot('disposable', 'disposable-email', form, fields, delivery, `a plausible ${form === 'contact' ? 'message' : 'application'} from a ${domain} mailbox`);
  });
  return schedule(entries, 0, 1);
}

/** One text from many senders: each copy has its own name, mailbox, phone and address. */
function campaignBots(): Timed[] {
  const windows = [[0.08, 0.34], [0.42, 0.68], [0.71, 0.96]] as const;
  return CAMPAIGNS.flatMap((campaign, index) => {
    const entries = Array.from({ length: campaign.copies }, () => {
      const person = newPerson(campaign.language);
      const sender: Sender = { name: `${person.first} ${person.last}`, email: personalEmail(person, campaign.language), phone: campaign.language === 'en' ? pick(FOREIGN_PHONES)() : ukrainianPhone(), company: '' };
      const delivery = browserDelivery('script', between(30, 150), botAddress(), pick(BOT_BROWSER_USER_AGENTS));
      return bot('campaign', 'one-message-many-addresses', 'contact', spamContact(campaign.text, sender), delivery, `campaign ${index + 1} of 3: ${campaign.label}, one of ${campaign.copies} copies`);
    });
    const [from, to] = windows[index] ?? [0, 1];
    return schedule(entries, from, to);
  });
}

/** What forged, stale and PoW-less posts carry: spam, now and then a bland line. */
function assortedSpam(): string {
  const roll = random();
  if (roll < 0.4) return linkSpam(1, 4).message;
  if (roll < 0.85) return pick(SPAM_PHRASES);
  return pick(BLAND_TEXTS);
}

function badTokenBots(): Timed[] {
  const forged = Array.from({ length: BOT_KIND_MINIMUMS['forged-token'] }, () => {
    const channel = chance(0.6) ? 'script' : 'no-script';
    const delivery: CorpusDelivery = { ...browserDelivery(channel, between(3, 120), botAddress(), pick(BOT_BROWSER_USER_AGENTS), channel === 'script' ? pick(['solved', 'invalid'] as const) : 'none'), token: 'forged' };
    return bot('forged', 'forged-token', 'contact', spamContact(assortedSpam()), delivery, `a made-up form token${channel === 'no-script' ? ' in an HTML form post' : ''}`);
  });
  const stale = Array.from({ length: BOT_KIND_MINIMUMS['stale-token'] }, () => {
    const channel = chance(0.6) ? 'script' : 'no-script';
    const delivery: CorpusDelivery = { ...browserDelivery(channel, between(3 * 3600, 30 * 3600), botAddress(), pick(BOT_BROWSER_USER_AGENTS)), token: 'stale' };
    return bot('stale', 'stale-token', 'contact', spamContact(assortedSpam()), delivery, `a genuine token kept for ${Math.round(delivery.fillSeconds / 3600)} hours before use`);
  });
  const noPow = Array.from({ length: BOT_KIND_MINIMUMS['no-pow'] }, () => {
    const pow = pick(['none', 'invalid'] as const);
    const message = chance(0.5) ? linkSpam(1, 4).message : pick(SPAM_PHRASES);
    const delivery = browserDelivery('script', between(10, 150), botAddress(), pick(BOT_BROWSER_USER_AGENTS), pow);
    return bot('no-pow', 'no-pow', 'contact', spamContact(message), delivery, pow === 'none' ? 'a script post with the page token but no proof of work' : 'a script post with the page token and a wrong proof of work');
  });
  return [...schedule(forged, 0.18, 0.82), ...schedule(stale, 0.1, 0.9), ...schedule(noPow, 0.35, 0.65)];
}

function buildBots(): Timed[] {
  return [...directBots(), ...tokenReplays(), ...headlessBots(), ...linkBots(), ...urlOnlyBots(), ...foreignBots(), ...phraseBots(), ...disposableBots(), ...campaignBots(), ...badTokenBots()];
}

/**
 * Numbers each kind's entries in the order they arrive (the builders number them as they make
 * them), and points replays and notes at the new ids.
 */
function numberInArrivalOrder(entries: readonly CorpusEntry[]): CorpusEntry[] {
  const counters = new Map<string, number>();
  const renamed = new Map<string, string>();
  for (const entry of entries) {
    const prefix = entry.id.replace(/-\d{3}$/, '');
    const number = (counters.get(prefix) ?? 0) + 1;
    counters.set(prefix, number);
    renamed.set(entry.id, `${prefix}-${String(number).padStart(3, '0')}`);
  }
  const rename = (id: string) => renamed.get(id) ?? id;
  return entries.map((entry) => ({
    ...entry,
    id: rename(entry.id),
    delivery: entry.delivery.replayOf === undefined ? entry.delivery : { ...entry.delivery, replayOf: rename(entry.delivery.replayOf) },
    note: entry.note.replace(/\b(?:bot|human)-[a-z-]+-\d{3}\b/g, rename),
  }));
}

/** Every entry, in the order it reaches the site. */
export const SPAM_CORPUS: readonly CorpusEntry[] = numberInArrivalOrder([...buildHumans(), ...buildBots()].sort((a, b) => a.at - b.at).map((timed) => timed.entry));
