/**
 * The API's contracts as TypeBox schemas (`@agency/shared/contracts`): the API validates and
 * serializes with them, and every TypeScript type of the data is derived from them. Browser code
 * imports the types from `@agency/shared` (type-only, so TypeBox stays out of its bundles).
 */
export * from './limits';
export * from './patterns';
export * from './honeypot';
export * from './idempotency-key';
export * from './errors';
export * from './health';
export * from './content';
export * from './attribution';
export * from './submissions';
export * from './telemetry';
export * from './staff';
export * from './data-requests';
export * from './backups';
export * from './articles';
export * from './staff-services';
export * from './spam';
export * from './follow-up';
export * from './dashboard';
export * from './release-commands';
export * from './release-health';
export * from './staff-releases';
export * from './remote-override';
