import { Type } from '@sinclair/typebox';
import { integer, readEnv, type Env } from './env';

/** The staff console (see docs/operations.md, "Staff console"). */
export interface StaffConfig {
  /** STAFF_SIGN_IN_RATE_LIMIT: sign-in and invitation requests one IP address may make per minute (default 20). */
  signInRateLimitPerMinute: number;
  /** STAFF_OVERDUE_CHECK_SECONDS: how often leads waiting past the response target are looked for (default 60). */
  overdueCheckSeconds: number;
  /** STAFF_WEEKLY_REPORT_CHECK_SECONDS: how often the admins' weekly e-mail is looked at, whether it is due (default 300). */
  weeklyReportCheckSeconds: number;
}

export const StaffEnv = Type.Object({
  STAFF_SIGN_IN_RATE_LIMIT: integer(20, 1),
  STAFF_OVERDUE_CHECK_SECONDS: integer(60, 1),
  STAFF_WEEKLY_REPORT_CHECK_SECONDS: integer(300, 1),
});

export function loadStaffConfig(env: Env): StaffConfig {
  const vars = readEnv(StaffEnv, env);
  return {
    signInRateLimitPerMinute: vars.STAFF_SIGN_IN_RATE_LIMIT,
    overdueCheckSeconds: vars.STAFF_OVERDUE_CHECK_SECONDS,
    weeklyReportCheckSeconds: vars.STAFF_WEEKLY_REPORT_CHECK_SECONDS,
  };
}
