import { Value } from '@sinclair/typebox/value';
import { BROWSER_ERROR_KINDS, UNKNOWN_PAGE, VITAL_NAMES } from '../telemetry/telemetry-events';
import { APP_NAMES, HOST_NAME, REMOTE_NAMES } from './app-names';
import { TELEMETRY_LIMITS } from './limits';
import { TelemetryBatchSchema, type TelemetryBatch, type TelemetryError, type TelemetryPageView, type TelemetryVital } from './telemetry';

const accepts = (body: unknown) => Value.Check(TelemetryBatchSchema, body);

const RELEASES = { shell: '2026.01.05-1a2b3c4', blog: '1.4.0+b7', home: 'dist', forms: 'external' };
const VIEW: TelemetryPageView = { page: '/blog/:postId', releases: RELEASES };
const VITAL: TelemetryVital = { name: 'LCP', value: 1234.5, page: '/', releases: { shell: 's1' } };
const ERROR: TelemetryError = {
  kind: 'uncaught',
  app: 'blog',
  release: 'b1',
  page: '/blog/:postId',
  message: "TypeError: Cannot read properties of undefined (reading 'title')",
  stack: 'TypeError: …\n    at f (http://x/remotes/blog/b1/323171529b.js:1:23456)',
  count: 3,
};
const BATCH: TelemetryBatch = { page_views: [VIEW], vitals: [VITAL], errors: [ERROR] };

const withView = (view: Record<string, unknown>) => ({ page_views: [{ ...VIEW, ...view }] });
const withVital = (vital: Record<string, unknown>) => ({ vitals: [{ ...VITAL, ...vital }] });
const withError = (error: Record<string, unknown>) => ({ errors: [{ ...ERROR, ...error }] });

describe('TelemetryBatchSchema', () => {
  it('accepts a batch of page views, vitals and errors, and each list alone', () => {
    expect(accepts(BATCH)).toBe(true);
    expect(accepts({ page_views: [VIEW] })).toBe(true);
    expect(accepts({ vitals: [VITAL] })).toBe(true);
    expect(accepts({ errors: [ERROR] })).toBe(true);
  });

  it('names every app of the registry: the host, then the remotes', () => {
    expect(APP_NAMES).toEqual([HOST_NAME, ...REMOTE_NAMES]);
    expect(HOST_NAME).toBe('shell');
  });

  it('accepts every error kind and vital name, an error without stack, and the unknown page', () => {
    for (const kind of BROWSER_ERROR_KINDS) expect(accepts(withError({ kind }))).toBe(true);
    for (const name of VITAL_NAMES) expect(accepts(withVital({ name }))).toBe(true);
    const { stack: _stack, ...withoutStack } = ERROR;
    expect(accepts({ errors: [withoutStack] })).toBe(true);
    expect(accepts(withView({ page: UNKNOWN_PAGE }))).toBe(true);
    expect(accepts(withError({ page: UNKNOWN_PAGE }))).toBe(true);
  });

  it('refuses an app that is not the shell or a remote', () => {
    for (const app of APP_NAMES) expect(accepts(withError({ app }))).toBe(true);
    for (const app of ['admin', 'Shell', '', 'shell ', 'blog/BlogTeaser']) expect(accepts(withError({ app }))).toBe(false);
  });

  it('refuses a page that is an address rather than a route pattern', () => {
    for (const page of ['/', '/blog', '/blog/:postId', '/privacy-policy']) expect(accepts(withView({ page }))).toBe(true);
    for (const page of [
      'https://agency.example/blog/7',
      '/blog?utm_source=fb',
      '/blog#top',
      '/blog/7 ',
      'blog',
      '',
      '/%D0%B1',
      `/${'x'.repeat(TELEMETRY_LIMITS.page)}`,
    ]) {
      expect(accepts(withView({ page }))).toBe(false);
      expect(accepts(withError({ page }))).toBe(false);
    }
  });

  // Checked as TypeBox checks them. The API's Ajv (removeAdditional) drops an unknown app instead.
  it('refuses releases of an unknown app, and a page view without any release', () => {
    expect(accepts(withView({ releases: { ...RELEASES, admin: 'a1' } }))).toBe(false);
    expect(accepts(withView({ releases: { admin: 'a1' } }))).toBe(false);
    expect(accepts(withVital({ releases: { shell: 's1', Blog: 'b1' } }))).toBe(false);
    expect(accepts(withView({ releases: {} }))).toBe(false);
  });

  it('refuses a release id that is empty, too long or not a plain name', () => {
    for (const release of ['', ' b1', 'b1/../x', 'b 1', '-b1', 'x'.repeat(TELEMETRY_LIMITS.release + 1)]) {
      expect(accepts(withError({ release }))).toBe(false);
      expect(accepts(withView({ releases: { shell: release } }))).toBe(false);
    }
    expect(accepts(withError({ release: 'x'.repeat(TELEMETRY_LIMITS.release) }))).toBe(true);
  });

  const { errors, vitals, pageViews } = TELEMETRY_LIMITS;
  it(`refuses more than ${errors} errors, ${vitals} vitals or ${pageViews} page views in one batch`, () => {
    expect(accepts({ errors: Array.from({ length: TELEMETRY_LIMITS.errors }, () => ERROR) })).toBe(true);
    expect(accepts({ errors: Array.from({ length: TELEMETRY_LIMITS.errors + 1 }, () => ERROR) })).toBe(false);
    expect(accepts({ vitals: Array.from({ length: TELEMETRY_LIMITS.vitals + 1 }, () => VITAL) })).toBe(false);
    expect(accepts({ page_views: Array.from({ length: TELEMETRY_LIMITS.pageViews + 1 }, () => VIEW) })).toBe(false);
  });

  it(`takes a vital value from 0 to ${TELEMETRY_LIMITS.vitalValue}`, () => {
    expect(accepts(withVital({ value: 0 }))).toBe(true);
    expect(accepts(withVital({ name: 'CLS', value: 0.0123 }))).toBe(true);
    expect(accepts(withVital({ value: TELEMETRY_LIMITS.vitalValue }))).toBe(true);
    expect(accepts(withVital({ value: -1 }))).toBe(false);
    expect(accepts(withVital({ value: TELEMETRY_LIMITS.vitalValue + 1 }))).toBe(false);
    expect(accepts(withVital({ value: 1e300 }))).toBe(false);
    expect(accepts(withVital({ value: '1200' }))).toBe(false);
  });

  it('refuses a vital it does not know', () => {
    for (const name of ['FID', 'lcp', 'TBT', '']) expect(accepts(withVital({ name }))).toBe(false);
  });

  it(`counts an error 1 to ${TELEMETRY_LIMITS.errorCount} times, in whole numbers`, () => {
    expect(accepts(withError({ count: 1 }))).toBe(true);
    expect(accepts(withError({ count: TELEMETRY_LIMITS.errorCount }))).toBe(true);
    for (const count of [0, -1, 1.5, TELEMETRY_LIMITS.errorCount + 1, '3']) expect(accepts(withError({ count }))).toBe(false);
    const { count: _count, ...withoutCount } = ERROR;
    expect(accepts({ errors: [withoutCount] })).toBe(false);
  });

  it('refuses an unknown error kind and texts over their limits', () => {
    expect(accepts(withError({ kind: 'warning' }))).toBe(false);
    expect(accepts(withError({ message: 'x'.repeat(TELEMETRY_LIMITS.message) }))).toBe(true);
    expect(accepts(withError({ message: 'x'.repeat(TELEMETRY_LIMITS.message + 1) }))).toBe(false);
    expect(accepts(withError({ stack: 'x'.repeat(TELEMETRY_LIMITS.stack + 1) }))).toBe(false);
  });

  it('refuses fields it does not define', () => {
    expect(accepts({ ...BATCH, user: 'olena@example.com' })).toBe(false);
    expect(accepts(withView({ url: 'https://agency.example/blog/7' }))).toBe(false);
    expect(accepts(withError({ user_agent: 'Mozilla/5.0' }))).toBe(false);
  });
});
