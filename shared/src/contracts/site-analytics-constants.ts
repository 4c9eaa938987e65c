import type { LeadKind } from './staff-constants';

/**
 * What the owner's dashboard counts of visits, and how, written once: the shell counts by it, the
 * API stores and reads by it, the console and the privacy page show it. Plain values (no TypeBox),
 * so browser bundles may import them.
 */

/**
 * Device classes by the screen's width in CSS pixels (the narrower side does not matter: a phone
 * turned sideways stays a phone), as the cookieless counters do it: no user-agent parsing.
 */
export const DEVICE_CLASSES = ['mobile', 'tablet', 'desktop'] as const;
export type DeviceClass = (typeof DEVICE_CLASSES)[number];

export const DEVICE_CLASS_LABELS: Record<DeviceClass, string> = {
  mobile: 'Телефон',
  tablet: 'Планшет',
  desktop: 'Компʼютер',
};

/** Screens narrower than this are phones; narrower than `tabletBelow`, tablets. */
const DEVICE_WIDTHS = { mobileBelow: 576, tabletBelow: 992 } as const;

/** The device class of a screen `width` CSS pixels wide. */
export function deviceClassOf(width: number): DeviceClass {
  if (width < DEVICE_WIDTHS.mobileBelow) return 'mobile';
  if (width < DEVICE_WIDTHS.tabletBelow) return 'tablet';
  return 'desktop';
}

/** The forms whose funnel the dashboard shows: the form module's id, and the leads it sends. */
export const ANALYTICS_FORMS: Readonly<Record<string, LeadKind>> = {
  'forms/ContactForm': 'contact',
  'forms/JobApplicationForm': 'applications',
};

/** The steps of a form's funnel the browser reports (sent and won come from the leads). */
export const FORM_STEPS = ['seen', 'started'] as const;
export type FormStep = (typeof FORM_STEPS)[number];

/** The periods the dashboard shows; `range` takes `from` and `to` (Kyiv dates). */
export const DASHBOARD_PERIODS = ['today', '7d', '30d', 'range'] as const;
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number];

/** The period shown when none is asked for. */
export const DASHBOARD_DEFAULT_PERIOD: DashboardPeriod = '7d';

export const DASHBOARD_PERIOD_LABELS: Record<DashboardPeriod, string> = {
  today: 'Сьогодні',
  '7d': '7 днів',
  '30d': '30 днів',
  range: 'Період',
};

/** What a click on a row filters the whole dashboard by; the console's address names them so. */
export const DASHBOARD_FILTER_KEYS = ['page', 'source', 'campaign', 'device'] as const;
export type DashboardFilterKey = (typeof DASHBOARD_FILTER_KEYS)[number];

/** What the totals are kept per: UTC hours, Kyiv days and Kyiv months; a chart's points are one of them. */
export const ROLLUP_GRAINS = ['hour', 'day', 'month'] as const;
export type RollupGrain = (typeof ROLLUP_GRAINS)[number];

export const SITE_ANALYTICS_LIMITS = {
  /** Days a chosen range covers at most. */
  rangeDaysMax: 400,
  /** A period this long or shorter is charted per day; longer ones per month (one day: per hour). */
  dailySeriesDaysMax: 92,
  /** Rows of each table on the dashboard. */
  dashboardRows: 10,
  /** Rows of each table in the weekly e-mail. */
  weeklyRows: 5,
  /** Time on a page counted at most for one page view (a tab left open overnight is not reading). */
  engagedMsMax: 30 * 60_000,
  /** A page's address path, in characters. */
  pathMax: 300,
} as const;

/**
 * How visitors are counted without cookies, as the privacy page tells it: a keyed hash of the
 * address and the browser's user agent, with a salt that changes every Kyiv day and is then
 * deleted, so a visitor cannot be recognised across days or from the stored data.
 */
export const VISITOR_COUNTING = {
  /** Days a salt (and every visitor hash made with it) is kept: the day it is for. */
  saltDays: 1,
  /** Anonymous totals per page, source and device are kept this long, in months. */
  aggregateMonths: 25,
} as const;
