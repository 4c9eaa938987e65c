import { Type } from '@sinclair/typebox';
import { integer, readEnv, type Env } from './env';

/** The staff console (see docs/operations.md, "Staff console"). */
export interface StaffConfig {
  /** STAFF_SIGN_IN_RATE_LIMIT: sign-in and invitation requests one IP address may make per minute (default 20). */
  signInRateLimitPerMinute: number;
}

export const StaffEnv = Type.Object({
  STAFF_SIGN_IN_RATE_LIMIT: integer(20, 1),
});

export function loadStaffConfig(env: Env): StaffConfig {
  return { signInRateLimitPerMinute: readEnv(StaffEnv, env).STAFF_SIGN_IN_RATE_LIMIT };
}
