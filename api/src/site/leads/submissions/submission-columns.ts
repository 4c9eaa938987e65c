import { ATTRIBUTION_KEYS } from '@agency/shared';
import type { SubmissionKind } from '../lead/lead-payload';

/** The stored columns of each kind of lead, in the order every export lists them (CLI and console). */
export const SUBMISSION_COLUMNS: Record<SubmissionKind, readonly string[]> = {
  contact: ['id', 'created_at', 'name', 'email', 'phone', 'company', 'service_type', 'message', 'user_agent', 'referrer', ...ATTRIBUTION_KEYS],
  applications: ['id', 'created_at', 'name', 'email', 'phone', 'city', 'position', 'resume_text', 'user_agent', 'referrer', ...ATTRIBUTION_KEYS],
};
