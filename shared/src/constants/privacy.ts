/** The privacy page, where the agency says how it handles the personal data the forms collect. */
export const PRIVACY_PATH = '/privacy';

/** Under each form's submit button: what sending means for the visitor's data, and where to read more. */
export const PRIVACY_CONSENT = {
  before: 'Надсилаючи форму, ви погоджуєтеся з обробкою персональних даних відповідно до ',
  link: 'Політики конфіденційності',
  after: '.',
} as const;

/**
 * How long the site keeps each browser session's visit (its random id, source, medium and
 * campaign) for conversion by source. The privacy page says it; the API deletes older ones.
 */
export const VISIT_SESSION_RETENTION_MONTHS = 13;

/**
 * How long the server keeps the keyed fingerprint of an address that tells one visitor from another
 * while a new version is tried on a share of visitors (telemetry_clients). The privacy page says it.
 */
export const TELEMETRY_CLIENT_RETENTION_DAYS = 2;

/**
 * How long leads are kept after their last activity (arrival, a status change, an assignment, a
 * note, a correction). The privacy page says each; the API's hourly purge deletes what is older,
 * with everything that hangs off a lead (notes, history, notification copies).
 */
export const LEAD_RETENTION = {
  /** Contact messages, unless «Успішна» (a contract was made): those stay until a person erases them. */
  contactMonths: 12,
  /** Job applications. */
  applicationMonths: 6,
  /** Leads marked «Спам», of either form. */
  spamDays: 30,
} as const;

/**
 * How long a notification's copy of a lead (the outbox's payload) is kept once it was delivered
 * or its delivery gave up; then its personal fields are removed and only the delivery's record stays.
 */
export const NOTIFICATION_COPY_RETENTION_DAYS = 30;

/** How soon the agency answers a person's request about their data. */
export const DATA_REQUEST_ANSWER_DAYS = 30;

/**
 * How long a backup of the database is kept (every one of the last day, then one a day): an erased
 * person leaves the last backup within this many days. The privacy page says it; the API's backup
 * retention deletes older backups and the archived changes they need.
 */
export const BACKUP_RETENTION_DAYS = 30;
