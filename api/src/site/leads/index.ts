/**
 * What the staff console may use of the site's leads: where submissions are stored and how they are
 * indexed, corrected and removed, the notifications an erasure sends, and the spam defence's
 * held leads and settings, and the follow-up of leads let through (settings, replies, alerts), and
 * the outbox's weekly report e-mail. The console imports leads
 * from here only (a lint rule keeps it so); the rest of this folder is the site's own.
 */
export { PHONE_KEY_DIGITS, phoneKey, reindexLead, searchWords } from './lead/lead-index';
export { idempotencyKey, type SubmittedLead } from './lead/lead-payload';
export { cancelPendingReplies, enqueueErasure, enqueueNotice, enqueueWeeklyReport } from './outbox/outbox-repository';
export type { LeadOverdueMessage, WeeklyReportMessage } from './lead/lead-payload';
export { kyivTime } from './lead/lead-text';
export type { LeadFollowUp } from './follow-up/lead-follow-up';
export { readFollowUpSettings, writeFollowUpSettings } from './follow-up/follow-up-settings';
export { unknownPlaceholders } from './follow-up/visitor-reply';
export { channelNames } from './outbox/channels';
export { releaseHeldLead } from './submissions/held-leads';
export type { SpamDefence } from './spam/spam-defence';
export { readSpamSettings, writeSpamSettings } from './spam/spam-settings';
export { removeLeads, type LeadRef } from './retention/lead-removal';
export { purgeExpired } from './retention/retention-purge';
export { SUBMISSION_COLUMNS } from './submissions/submission-columns';
export { SUBMISSION_TABLES } from './submissions/submissions-repository';
export { normalizeTextInput } from './submissions/text-input';
