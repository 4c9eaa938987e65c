/**
 * Data contracts between the API and the browser apps, as TypeScript types. Each is derived from
 * its TypeBox schema in this folder (what the API validates and serializes with) and re-exported
 * here as a type only, so importing them never pulls TypeBox into a browser bundle. This is what
 * `@agency/shared` exports; `@agency/shared/contracts` (./index.ts) exports the schemas' files.
 */
export type { ApiErrorBody } from './errors';
export type { BlogCategoryCount, BlogListing, BlogPost, BlogPostSummary, Service } from './content';
export type {
  ContactMessage,
  ContactMessageInput,
  CreatedResponse,
  JobApplication,
  JobApplicationInput,
  ServiceType,
} from './submissions';
export type { Attribution, VisitSession } from './attribution';
export type { TelemetryBatch, TelemetryError, PageAnalytics, TelemetryPageView, TelemetryVital } from './telemetry';
export { HONEYPOT_FIELD } from './honeypot';
export { IDEMPOTENCY_KEY_HEADER } from './idempotency-key';
export type { FormChallengeResponse, ProofChallenge, SpamSettings } from './spam';
export type { FollowUpSettings, FollowUpSettingsConflict, FollowUpSettingsUpdate, FollowUpSettingsView, LeadRoutingMember, LeadRoutingUpdate, PersonLead, ReplyTemplate, ResponseReport } from './follow-up';
export type { Dashboard, DashboardFigures, DashboardQuery, DashboardRow, WeeklyReportChoice } from './dashboard';
export type {
  AuditEntry,
  AuditPage,
  CredentialOptionsResponse,
  InvitationAccepted,
  InvitationInfo,
  InviteResponse,
  LeadChange,
  LeadConflict,
  LeadDetail,
  LeadFilter,
  LeadNote,
  LeadPage,
  LeadSummary,
  LeadUpdate,
  MemberList,
  RecoveryCodesResponse,
  SessionInfo,
  SpamSettingsConflict,
  SpamSettingsUpdate,
  SpamSettingsView,
  StaffMember,
  StaffSession,
  TeamMember,
  TotpSetupResponse,
} from './staff';
export type { Correction, DataSubjectBody, DataSubjectReport, ErasureBody, ErasureResult, SubjectLead } from './data-requests';
export type { BackupAlertName, BackupOverview, BackupReason, BackupStatusView } from './backups';
export type {
  ArticleConflict,
  ArticleCreate,
  ArticleDetail,
  ArticleFields,
  ArticleRevision,
  ArticleRevisionSummary,
  ArticleSave,
  ArticleSchedule,
  ArticleSummary,
  UploadedImage,
} from './articles';
export type { ServiceConflict, ServiceCreate, ServiceFields, ServiceSave, StaffService } from './staff-services';
export type { ReleaseExpectation } from './release-commands';
export type { CanaryStatus, DeliveryEvent, ReleaseHealth, ReleaseStatus, ReleaseStatusEntry, TopError, Verdict } from './release-health';
export type {
  ReleaseCandidate,
  ReleaseSeries,
  ReleaseSeriesLine,
  StaffCanaryBody,
  StaffPromoteBody,
  StaffRelease,
  StaffReleaseApp,
  StaffReleaseChanged,
  StaffReleaseDetail,
  StaffReleaseExpectBody,
  StaffReleaseHealthQuery,
  StaffReleases,
  StaffStageBody,
} from './staff-releases';
export type { RemoteOverrideBody, RemoteOverrideState, RemoteOverrideView } from './remote-override';
