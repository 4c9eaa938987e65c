import {
  FOLLOW_UP_LIMITS,
  LEAD_KINDS,
  formatWorkingMinutes,
  type ApiErrorBody,
  type FollowUpSettingsUpdate,
  type FollowUpSettingsView,
  type LeadKind,
  type ReplyTemplate,
} from '@agency/shared';
import type { AxiosError } from 'axios';
import { messageOf } from '../../shared/api/staff-api';

/** What the settings form holds, as typed: the target's text and each kind's reply. */
export interface FollowUpDraft {
  targetMinutes: string;
  replies: Record<LeadKind, ReplyTemplate>;
}

export const draftOf = (view: FollowUpSettingsView): FollowUpDraft => ({
  targetMinutes: String(view.targetMinutes),
  replies: { contact: { ...view.replies.contact }, applications: { ...view.replies.applications } },
});

export const updateOf = (draft: FollowUpDraft, version: number): FollowUpSettingsUpdate => ({
  replies: draft.replies,
  targetMinutes: Number(draft.targetMinutes),
  version,
});

/** Whether the form differs from what holds. */
export function draftChanged(draft: FollowUpDraft, view: FollowUpSettingsView): boolean {
  if (draft.targetMinutes.trim() !== String(view.targetMinutes)) return true;
  return LEAD_KINDS.some((kind) => draft.replies[kind].subject !== view.replies[kind].subject || draft.replies[kind].text !== view.replies[kind].text);
}

/** The target as typed, in working time («2 год»), or undefined while it is no allowed number. */
export function targetText(typed: string): string | undefined {
  const minutes = Number(typed);
  if (typed.trim() === '' || !Number.isInteger(minutes)) return undefined;
  if (minutes < FOLLOW_UP_LIMITS.targetMinutesMin || minutes > FOLLOW_UP_LIMITS.targetMinutesMax) return undefined;
  return formatWorkingMinutes(minutes);
}

/** Where a refused save's per-field messages are shown: the reply of a kind, or the target. */
export const replyField = (kind: LeadKind) => `replies.${kind}`;
export const TARGET_FIELD = 'targetMinutes';
const SHOWN_AT_FIELDS = new Set([TARGET_FIELD, ...LEAD_KINDS.map(replyField)]);

/**
 * A refused request read for a form: the per-field messages (`fields` of a 400) and the general
 * message, followed by any field's message that has no field of its own on the form.
 */
export function refusalOf(failure: unknown, shownAtFields: ReadonlySet<string> = SHOWN_AT_FIELDS): { message: string; fields: Record<string, string> } {
  const fields = (failure as AxiosError<ApiErrorBody>).response?.data?.error?.fields ?? {};
  const elsewhere = Object.entries(fields)
    .filter(([name]) => !shownAtFields.has(name))
    .map(([, message]) => message);
  return { message: elsewhere.length > 0 ? `${messageOf(failure)}: ${elsewhere.join('; ')}` : messageOf(failure), fields };
}
