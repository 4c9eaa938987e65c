import type { ArticleRevisionKind, LeadKind, LeadStatus, StaffRole } from '@agency/shared';
import type { ColumnType, Generated } from 'kysely';

/** The staff console (migration 0012): every timestamp ISO 8601 text in UTC. */
export interface StaffMembersTable {
  id: Generated<number>;
  email: string;
  role: StaffRole;
  created_at: string;
  removed_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** Skipped by assignment while set (migration 0017). */
  away: ColumnType<number, number | undefined, number>;
  /** Where an overdue alert about their lead reaches them; the team's chat when null. */
  telegram_chat_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Whether the member wants the weekly e-mail of the site's figures (migration 0018). */
  weekly_report: ColumnType<number, number | undefined, number>;
  /** The apps a release manager may change the releases of, a JSON array of names; '[]' for other roles (migration 0019). */
  release_apps: ColumnType<string, string | undefined, string>;
}

export interface StaffInvitationsTable {
  token_hash: string;
  email: string;
  role: StaffRole;
  invited_by: number | null;
  created_at: string;
  expires_at: string;
  used_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The apps the member will be given, as in staff_members (migration 0019). */
  release_apps: ColumnType<string, string | undefined, string>;
}

export interface StaffPasskeysTable {
  id: string;
  member_id: number;
  public_key: string;
  counter: ColumnType<number | string, number, number>;
  transports: string;
  created_at: string;
  last_used_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface StaffTotpTable {
  member_id: number;
  secret: string;
  last_step: ColumnType<number | string, number, number>;
  created_at: string;
}

export interface StaffRecoveryCodesTable {
  code_hash: string;
  member_id: number;
  created_at: string;
  used_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface StaffCodeFailuresTable {
  email: string;
  at: string;
}

export interface StaffCodeLockoutsTable {
  email: string;
  until: string;
}

export interface StaffSessionsTable {
  id_hash: string;
  member_id: number;
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  user_agent: string;
  address: string;
}

export interface StaffChallengesTable {
  id: string;
  purpose: string;
  value: string;
  expires_at: string;
}

export interface StaffAuditTable {
  seq: Generated<number>;
  at: string;
  actor_id: number | null;
  actor: string;
  action: string;
  target: string;
  address: string;
  detail: string;
}

/** A lead in the console's inbox, worked there (status, assignee, version); the site adds one as it stores a submission. */
export interface LeadsTable {
  id: Generated<number>;
  kind: LeadKind;
  submission_id: number;
  received_at: string;
  source: string;
  status: LeadStatus;
  assignee_id: number | null;
  version: number;
  updated_at: string;
  /** The arrival or the latest work on the lead; retention counts from it (migration 0013). */
  last_activity_at: string;
  /** Why the spam defence held the lead: a JSON array of reason codes; null when it did not (migration 0016). */
  spam_reasons: ColumnType<string | null, string | null | undefined, string | null>;
  /** What the spam defence counts recent leads by (migration 0016); null for leads from before. */
  email_key: ColumnType<string | null, string | null | undefined, string | null>;
  phone_key: ColumnType<string | null, string | null | undefined, string | null>;
  address_key: ColumnType<string | null, string | null | undefined, string | null>;
  message_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** The leads of one person share it (the first one's id); null for a lead of nobody else's (migration 0017). */
  person_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** Staff's first status change or note, by whom, after how many working minutes. */
  first_response_at: ColumnType<string | null, string | null | undefined, string | null>;
  first_response_by: ColumnType<number | null, number | null | undefined, number | null>;
  first_response_minutes: ColumnType<number | null, number | null | undefined, number | null>;
  /** When it was found waiting past the target (its alert queued then, once). */
  overdue_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The device class of the visit that sent it; null when the visit was not counted (migration 0018). */
  device: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Which members take which kind of lead in turn (migration 0017). */
export interface LeadRoutingTable {
  member_id: number;
  kind: LeadKind;
}

/** Each kind's count of automatic assignments: the next one's turn. */
export interface LeadRoutingTurnsTable {
  kind: LeadKind;
  turns: number;
}

/** What admins set for the work after a lead arrives (one row, id 1). */
export interface LeadFollowUpSettingsTable {
  id: number;
  /** JSON: the reply templates by kind. */
  replies: string;
  target_minutes: number;
  version: number;
  updated_at: string;
  updated_by: number | null;
}

export interface LeadNotesTable {
  id: Generated<number>;
  lead_id: number;
  author_id: number;
  text: string;
  created_at: string;
}

export interface LeadHistoryTable {
  id: Generated<number>;
  lead_id: number;
  actor_id: number | null;
  at: string;
  change: string;
  old_value: string | null;
  new_value: string | null;
}

/** The fields of an article an editor writes, as a working copy and each revision keep them. */
interface ArticleFieldColumns {
  title: string;
  category: string;
  excerpt: string;
  author: string;
  cover_url: string;
  markdown: string;
}

/** A console article's working copy (migration 0014); ISO 8601 text timestamps. */
export interface ArticleDraftsTable extends ArticleFieldColumns {
  post_id: number;
  version: number;
  created_at: string;
  updated_at: string;
  updated_by: number | null;
  publish_at: string | null;
  published_version: number | null;
  first_published_at: string | null;
}

export interface ArticleRevisionsTable extends ArticleFieldColumns {
  id: Generated<number>;
  post_id: number;
  version: number;
  at: string;
  actor_id: number | null;
  actor: string;
  kind: ArticleRevisionKind;
  restored_from: number | null;
  slug: string;
}

/** The staff console's tables: members and their credentials, sessions, the audit log, the work on leads and on articles. */
export interface StaffTables {
  staff_members: StaffMembersTable;
  staff_invitations: StaffInvitationsTable;
  staff_passkeys: StaffPasskeysTable;
  staff_totp: StaffTotpTable;
  staff_recovery_codes: StaffRecoveryCodesTable;
  staff_code_failures: StaffCodeFailuresTable;
  staff_code_lockouts: StaffCodeLockoutsTable;
  staff_sessions: StaffSessionsTable;
  staff_challenges: StaffChallengesTable;
  staff_audit: StaffAuditTable;
  leads: LeadsTable;
  lead_notes: LeadNotesTable;
  lead_history: LeadHistoryTable;
  lead_routing: LeadRoutingTable;
  lead_routing_turns: LeadRoutingTurnsTable;
  lead_follow_up_settings: LeadFollowUpSettingsTable;
  article_drafts: ArticleDraftsTable;
  article_revisions: ArticleRevisionsTable;
}
