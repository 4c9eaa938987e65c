/**
 * Data contracts between the API and the browser apps, as TypeScript types. Each is derived from
 * its TypeBox schema in ./contracts (what the API validates and serializes with) and re-exported
 * here as a type only, so importing them never pulls TypeBox into a browser bundle.
 */
export type { ApiErrorBody } from './contracts/errors';
export type { BlogCategoryCount, BlogListing, BlogPost, BlogPostSummary, Service } from './contracts/content';
export type {
  ContactMessage,
  ContactMessageInput,
  CreatedResponse,
  JobApplication,
  JobApplicationInput,
  ServiceType,
} from './contracts/submissions';
export type { Attribution, VisitSession } from './contracts/attribution';
export type { TelemetryBatch, TelemetryError, TelemetryPageView, TelemetryVital } from './contracts/telemetry';
export { HONEYPOT_FIELD } from './contracts/honeypot';
export { IDEMPOTENCY_KEY_HEADER } from './contracts/idempotency-key';
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
  StaffMember,
  StaffSession,
  TotpSetupResponse,
} from './contracts/staff';
export type { Correction, DataSubjectReport, ErasureResult, SubjectLead } from './contracts/data-requests';
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
} from './contracts/articles';
export type { ServiceConflict, ServiceCreate, ServiceFields, ServiceSave, StaffService } from './contracts/staff-services';
