import type { AxiosError, AxiosInstance } from 'axios';
import {
  STAFF_API_PREFIX,
  STAFF_CSRF_HEADER,
  type ApiErrorBody,
  type Dashboard,
  type DashboardQuery,
  type FollowUpSettingsUpdate,
  type FollowUpSettingsView,
  type LeadRoutingMember,
  type LeadRoutingUpdate,
  type LeadSummary,
  type ResponseReport,
  type WeeklyReportChoice,
} from '@agency/shared';

/**
 * The console's HTTP client: the staff API on the page's own origin. The session cookie goes
 * with every request by itself (HttpOnly, this origin only); state-changing requests carry the
 * session's CSRF token, which the console learns from `GET /api/staff/session`.
 */
let client: Promise<AxiosInstance> | undefined;
let csrfToken: string | undefined;
let onUnauthorized: () => void = () => undefined;

/** Called when any request answers 401: the session ended (signed out elsewhere, expired, role changed). */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

export function staffApi(): Promise<AxiosInstance> {
  client ??= import('axios').then(({ default: axios }) => {
    const instance = axios.create({ baseURL: STAFF_API_PREFIX, timeout: 20_000, headers: { Accept: 'application/json' } });
    instance.interceptors.request.use((config) => {
      if (csrfToken && config.method && config.method.toLowerCase() !== 'get') config.headers.set(STAFF_CSRF_HEADER, csrfToken);
      return config;
    });
    instance.interceptors.response.use(undefined, (error: unknown) => {
      if (statusOf(error) === 401 && !String((error as AxiosError).config?.url).startsWith('/sign-in')) onUnauthorized();
      return Promise.reject(error);
    });
    return instance;
  });
  return client;
}

/** The status of a failed request (0 when there was no answer). */
export function statusOf(error: unknown): number {
  return (error as AxiosError).response?.status ?? 0;
}

/** The API's Ukrainian message for a failed request, or a general one. */
export function messageOf(error: unknown): string {
  const body = (error as AxiosError<ApiErrorBody>).response?.data;
  if (body && typeof body === 'object' && 'error' in body) return body.error.message;
  return statusOf(error) === 0 ? 'Немає зʼєднання із сервером. Перевірте мережу й спробуйте ще раз' : 'Щось пішло не так. Спробуйте ще раз';
}

export async function staffGet<T>(path: string, params?: object): Promise<T> {
  return (await (await staffApi()).get<T>(path, { params })).data;
}

export async function staffSend<T>(method: 'post' | 'put' | 'patch' | 'delete', path: string, body?: unknown): Promise<T> {
  return (await (await staffApi()).request<T>({ method, url: path, data: body })).data;
}

/**
 * POSTs `body` and saves the answer as a file, named as its Content-Disposition says: a download
 * whose request names a person, which a link's URL would carry into logs and the browser's history.
 * A refusal rejects like staffSend's, its JSON error readable by messageOf.
 */
export async function staffDownload(path: string, body: unknown): Promise<void> {
  let response;
  try {
    response = await (await staffApi()).post<Blob>(path, body, { responseType: 'blob' });
  } catch (error) {
    const failed = (error as AxiosError).response;
    if (failed?.data instanceof Blob) {
      try {
        failed.data = JSON.parse(await failed.data.text()) as unknown;
      } catch {
        // Not JSON: messageOf falls back to its general message.
      }
    }
    throw error;
  }
  const name = /filename="([^"]+)"/.exec(String(response.headers['content-disposition'] ?? ''))?.[1] ?? 'download';
  const url = URL.createObjectURL(response.data);
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked once the browser has surely taken the file: revoking at once can cancel the download.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Sends a file as the body, as it is (the server judges what it is by its content). */
export async function staffUpload<T>(path: string, file: Blob): Promise<T> {
  return (await (await staffApi()).post<T>(path, file, { headers: { 'Content-Type': file.type || 'application/octet-stream' } })).data;
}

/** How fast the agency answers, over the last `weeks` Kyiv weeks (the API's default when not given). */
export function fetchResponseReport(weeks?: number): Promise<ResponseReport> {
  return staffGet<ResponseReport>('/leads/report', weeks === undefined ? undefined : { weeks: String(weeks) });
}

/** Unlinks a lead from the person it was joined to, from `version` (409 LEAD_CHANGED when it moved on). */
export function unlinkLead(id: number, version: number): Promise<LeadSummary> {
  return staffSend<LeadSummary>('post', `/leads/${id}/unlink`, { version });
}

/** The visitor's replies and the response target (admins). */
export function fetchFollowUpSettings(): Promise<FollowUpSettingsView> {
  return staffGet<FollowUpSettingsView>('/follow-up-settings');
}

/** Saves them from `update.version` (409 FOLLOW_UP_SETTINGS_CHANGED with the current ones when they moved on). */
export function saveFollowUpSettings(update: FollowUpSettingsUpdate): Promise<FollowUpSettingsView> {
  return staffSend<FollowUpSettingsView>('put', '/follow-up-settings', update);
}

/** Every member with the kinds of lead they take, whether they are away, and their Telegram chat (admins). */
export function fetchLeadRouting(): Promise<LeadRoutingMember[]> {
  return staffGet<LeadRoutingMember[]>('/lead-routing');
}

export function saveLeadRouting(id: number, update: LeadRoutingUpdate): Promise<LeadRoutingMember> {
  return staffSend<LeadRoutingMember>('put', `/lead-routing/${id}`, update);
}

/** The owner's dashboard for a period, filtered as `query` says (every role). */
export function fetchDashboard(query: DashboardQuery): Promise<Dashboard> {
  const params = Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined && value !== ''));
  return staffGet<Dashboard>('/overview', params);
}

/** Turns the signed-in admin's weekly e-mail on or off (204). */
export function saveWeeklyReport(choice: WeeklyReportChoice): Promise<void> {
  return staffSend<void>('put', '/overview/weekly-report', choice);
}
