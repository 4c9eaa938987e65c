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
