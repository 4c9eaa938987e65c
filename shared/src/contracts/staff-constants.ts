/**
 * The staff console's vocabulary and limits, written once: the API enforces them, the console
 * shows them. Plain values (no TypeBox), so browser bundles may import them.
 */

/**
 * The console's roles. `viewer`, `editor` and `admin` work the agency's content and leads, each
 * including the ones before it. `release_manager` is of another kind: a front-end team's person
 * who sees «Релізи» and acts on the releases of the apps they are given (like a team's release
 * token), and nothing of leads or content. Admins see «Релізи» but act on no release.
 */
export const STAFF_ROLES = ['viewer', 'editor', 'admin', 'release_manager'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** The roles that work leads and content, each including the ones before it. */
const LEAD_ROLES: readonly StaffRole[] = ['viewer', 'editor', 'admin'];

export const STAFF_ROLE_LABELS: Record<StaffRole, string> = {
  viewer: 'Читач',
  editor: 'Редактор',
  admin: 'Адміністратор',
  release_manager: 'Менеджер релізів',
};

/**
 * What a route or page needs: a role, `releases` (to read «Релізи»: release managers and
 * admins), or `member` (anyone signed in: their own account).
 */
export type StaffAccess = StaffRole | 'releases' | 'member';

/** Whether `role` may do what `needed` asks. */
export function roleAllows(role: StaffRole, needed: StaffAccess): boolean {
  if (needed === 'member') return true;
  if (needed === 'releases') return role === 'release_manager' || role === 'admin';
  if (needed === 'release_manager') return role === 'release_manager';
  return LEAD_ROLES.includes(role) && LEAD_ROLES.indexOf(role) >= LEAD_ROLES.indexOf(needed);
}

/** Whether a member may change `app`'s releases: a release manager given that app. */
export function mayActOnReleases(member: { role: StaffRole; releaseApps: readonly string[] }, app: string): boolean {
  return member.role === 'release_manager' && member.releaseApps.includes(app);
}

/** A lead's place in the agency's work; every lead starts `new`. */
export const LEAD_STATUSES = ['new', 'in_progress', 'won', 'lost', 'spam'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

export const LEAD_STATUS_LABELS: Record<LeadStatus, string> = {
  new: 'Нова',
  in_progress: 'В роботі',
  won: 'Успішна',
  lost: 'Втрачена',
  spam: 'Спам',
};

export const LEAD_KINDS = ['contact', 'applications'] as const;
export type LeadKind = (typeof LEAD_KINDS)[number];

export const LEAD_KIND_LABELS: Record<LeadKind, string> = {
  contact: 'Звернення',
  applications: 'Відгук на вакансію',
};

/** The inbox's filters, as the console's address and the API's query name them (LeadFilterSchema). */
export const LEAD_FILTER_KEYS = ['status', 'kind', 'source', 'assignee', 'from', 'to', 'q'] as const;

/** The console shows dates and times as the agency lives them. */
export const STAFF_LOCALE = 'uk-UA';
export const STAFF_TIME_ZONE = 'Europe/Kyiv';

export const STAFF_LIMITS = {
  /** Leads per inbox page. */
  pageSize: 50,
  /** Leads one "mark as spam" may name. */
  bulkMax: 200,
  /** A note's length, in characters. */
  noteMax: 5000,
  /** A search's length, in characters. */
  searchMax: 200,
  /** A filter's source or e-mail, in characters. */
  textFilterMax: 254,
  /** One-time recovery codes made at once. */
  recoveryCodes: 10,
  /** An invitation link's life, in hours. */
  invitationHours: 72,
  /** Wrong codes (app or recovery) for one e-mail within `lockoutMinutes` before codes are refused… */
  codeFailures: 5,
  /** …for this many minutes (passkeys still work). */
  lockoutMinutes: 15,
  /** A session ends after this long without a request… */
  sessionIdleHours: 12,
  /** …and after this long in all. */
  sessionMaxDays: 7,
  /** The console asks for new leads this often, in seconds. */
  pollSeconds: 5,
} as const;

/** Where the session cookie is sent: the staff API alone, never a public page. */
export const STAFF_SESSION_COOKIE = 'staff_session';
export const STAFF_API_PREFIX = '/api/staff';
/** The header a state-changing staff request carries its session's CSRF token in. */
export const STAFF_CSRF_HEADER = 'x-csrf-token';
/** The console's pages, mounted by the shell; the invitation's token follows `#`. */
export const STAFF_PATHS = {
  home: '/staff',
  login: '/staff/login',
  invite: '/staff/invite',
  audit: '/staff/audit',
  team: '/staff/team',
  account: '/staff/account',
  dataRequests: '/staff/data-requests',
  backups: '/staff/backups',
  spamSettings: '/staff/spam',
  followUp: '/staff/follow-up',
  responseReport: '/staff/report',
  overview: '/staff/overview',
  articles: '/staff/articles',
  services: '/staff/services',
  releases: '/staff/releases',
} as const;

/** A lead's fields as the console shows them, in each form's order. */
export const LEAD_FIELDS: Record<LeadKind, readonly string[]> = {
  contact: ['name', 'email', 'phone', 'company', 'service_type', 'message'],
  applications: ['name', 'email', 'phone', 'city', 'position', 'resume_text'],
};

export const LEAD_FIELD_LABELS: Record<string, string> = {
  name: 'Імʼя',
  email: 'E-mail',
  phone: 'Телефон',
  company: 'Компанія',
  service_type: 'Послуга',
  message: 'Повідомлення',
  city: 'Місто',
  position: 'Вакансія',
  resume_text: 'Резюме',
};

/** Whether a path is one of the console's pages (served never cached, never indexed). */
export function isStaffPath(pathname: string): boolean {
  return pathname === STAFF_PATHS.home || pathname.startsWith(`${STAFF_PATHS.home}/`);
}

/** The fields of a lead a person may have corrected (their request about their data). */
export const CORRECTABLE_FIELDS = ['name', 'email', 'phone'] as const;
export type CorrectableField = (typeof CORRECTABLE_FIELDS)[number];
