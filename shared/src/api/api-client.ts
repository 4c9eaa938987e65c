import type { AxiosInstance } from 'axios';
import type {
  BlogListing,
  BlogPost,
  BlogPostSummary,
  ContactMessage,
  CreatedResponse,
  FormChallengeResponse,
  JobApplication,
  Service,
} from '../contracts/types';
import { HONEYPOT_FIELD, IDEMPOTENCY_KEY_HEADER } from '../contracts/types';
import { FORM_TOKEN_FIELD, PROOF_OF_WORK_FIELD } from '../contracts/spam-constants';
import type { FormName } from '../page/form-results';
import { readSessionAttribution } from '../attribution/session-attribution';
import { SUBMISSION_ATTEMPT_TIMEOUT_MS } from './submission-retry';


let client: Promise<AxiosInstance> | undefined;

/**
 * The HTTP client of the browser apps: the API on the page's own origin, under /api. axios is
 * fetched with the first request, not with the page: a page shows what the server rendered with
 * it and needs the API only when the visitor moves on or sends a form. A failed fetch of it is
 * tried again by the next request.
 */
function apiClient(): Promise<AxiosInstance> {
  client ??= import('axios').then(
    ({ default: axios }) => axios.create({ baseURL: '/api', timeout: 15000, headers: { Accept: 'application/json' } }),
    (error: unknown) => {
      client = undefined;
      throw error;
    },
  );
  return client;
}

/** The body of a successful GET answer; a failure rejects with axios's error (its `response` says the status). */
async function getJson<T>(path: string, params?: Record<string, string | number>): Promise<T> {
  const response = await (await apiClient()).get<T>(path, { params });
  return response.data;
}

/** One try of a submission, under its idempotency key, with where this session's visit came from. */
async function postSubmission<T>(path: string, body: object, idempotencyKey: string): Promise<T> {
  const attribution = readSessionAttribution()?.attribution;
  const response = await (await apiClient()).post<T>(path, { ...body, attribution }, {
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
    timeout: SUBMISSION_ATTEMPT_TIMEOUT_MS,
  });
  return response.data;
}

export function fetchServices(): Promise<Service[]> {
  return getJson<Service[]>('/services');
}

export function fetchBlogPosts(limit?: number): Promise<BlogPostSummary[]> {
  return getJson<BlogPostSummary[]>('/blog', limit === undefined ? undefined : { limit });
}

/** The API path of one post, below /api; also the key of its server-rendered data. */
export function blogPostPath(postId: string): string {
  return `/blog/${encodeURIComponent(postId)}`;
}

export function fetchBlogPost(postId: string): Promise<BlogPost> {
  return getJson<BlogPost>(blogPostPath(postId));
}

/**
 * The API path of one listing page, below /api (also the key of its server-rendered data): the
 * page always, the category when there is one, in that order, so one page has one key.
 */
export function blogListingApiPath({ category, page }: { category: string | null; page: number }): string {
  const categoryParam = category ? `&category=${encodeURIComponent(category)}` : '';
  return `/blog/listing?page=${page}${categoryParam}`;
}

export function fetchBlogListing(apiPath: string): Promise<BlogListing> {
  return getJson<BlogListing>(apiPath);
}

/** The API path of the posts related to one post, below /api. */
export function relatedPostsPath(postId: string): string {
  return `${blogPostPath(postId)}/related`;
}

export function fetchRelatedPosts(postId: string): Promise<BlogPostSummary[]> {
  return getJson<BlogPostSummary[]>(relatedPostsPath(postId));
}

/** A fresh form token and a proof-of-work challenge for `form`, for its script to solve while the person types. */
export function fetchFormChallenge(form: FormName): Promise<FormChallengeResponse> {
  return getJson<FormChallengeResponse>(`/forms/${form}/challenge`);
}

/**
 * What a form sends beside its fields for the spam defence: the spam trap's value (empty from
 * people, filled by bots: the API answers a filled one like success and stores nothing), the form
 * token and the solved proof of work, when the form has them (without them the API still stores
 * the submission, held for staff to look at).
 */
export interface SubmissionGuard {
  honeypot: string;
  formToken?: string;
  proof?: string;
}

function guardFields({ honeypot, formToken, proof }: SubmissionGuard) {
  return { [HONEYPOT_FIELD]: honeypot, [FORM_TOKEN_FIELD]: formToken, [PROOF_OF_WORK_FIELD]: proof };
}

/**
 * One try of a submission. `idempotencyKey` names the submission: every retry of it sends the
 * same one, with the same guard (sendWithRetries).
 */
export function submitJobApplication(application: JobApplication, guard: SubmissionGuard, idempotencyKey: string): Promise<CreatedResponse> {
  return postSubmission<CreatedResponse>('/jobs/apply', { ...application, ...guardFields(guard) }, idempotencyKey);
}

export function submitContactMessage(message: ContactMessage, guard: SubmissionGuard, idempotencyKey: string): Promise<CreatedResponse> {
  return postSubmission<CreatedResponse>('/contact', { ...message, ...guardFields(guard) }, idempotencyKey);
}
