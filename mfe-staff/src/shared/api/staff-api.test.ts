import { AxiosError, AxiosHeaders, type InternalAxiosRequestConfig } from 'axios';
import { STAFF_CSRF_HEADER } from '@agency/shared';
import {
  fetchDashboard,
  fetchFollowUpSettings,
  fetchLeadRouting,
  fetchResponseReport,
  messageOf,
  saveFollowUpSettings,
  saveLeadRouting,
  saveWeeklyReport,
  setCsrfToken,
  staffApi,
  staffDownload,
  unlinkLead,
} from './staff-api';

/** What the console's client sent, and the answer the fake server gives it. */
let sent: InternalAxiosRequestConfig | undefined;
let answer: (config: InternalAxiosRequestConfig) => Promise<unknown>;
/** The links the download clicked: the file's address and name. */
let clicked: { href: string; download: string }[];

beforeAll(async () => {
  (await staffApi()).defaults.adapter = async (config) => {
    sent = config;
    return answer(config) as never;
  };
  // jsdom's Blob has no text() (browsers have), no object URLs, and does not download.
  Blob.prototype.text ??= function (this: Blob) {
    return new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as string);
      reader.readAsText(this);
    });
  };
  URL.createObjectURL = jest.fn(() => 'blob:http://localhost/file-1');
  URL.revokeObjectURL = jest.fn();
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push({ href: this.href, download: this.download });
  });
});

beforeEach(() => {
  sent = undefined;
  clicked = [];
  setCsrfToken('csrf-token');
});

describe('staffDownload', () => {
  it('POSTs the body with the CSRF token and saves the answer under the name the server gives', async () => {
    answer = async (config) => ({
      data: new Blob(['{"format":"agency-data-subject/1"}'], { type: 'application/json' }),
      status: 200,
      statusText: 'OK',
      headers: { 'content-disposition': 'attachment; filename="data-2026-11-26.json"' },
      config,
    });
    await staffDownload('/data-requests/export', { subject: 'olena@example.com' });
    expect(sent).toMatchObject({ method: 'post', url: '/data-requests/export', data: '{"subject":"olena@example.com"}', responseType: 'blob' });
    expect(sent!.headers.get(STAFF_CSRF_HEADER)).toBe('csrf-token');
    expect(clicked).toEqual([{ href: 'blob:http://localhost/file-1', download: 'data-2026-11-26.json' }]);
    // The temporary link is gone from the page.
    expect(document.querySelector('a[download]')).toBeNull();
  });

  it('rejects with the API’s message when refused, though the answer came as a file', async () => {
    answer = async (config) => {
      const body = new Blob([JSON.stringify({ error: { code: 'CSRF_REFUSED', message: 'Запит відхилено: оновіть сторінку й спробуйте ще раз' } })]);
      throw new AxiosError('403', 'ERR_BAD_REQUEST', config, {}, { status: 403, statusText: '', data: body, headers: new AxiosHeaders(), config });
    };
    const failure = await staffDownload('/data-requests/export', { subject: 'olena@example.com' }).catch((error: unknown) => error);
    expect(messageOf(failure)).toBe('Запит відхилено: оновіть сторінку й спробуйте ще раз');
    expect(clicked).toEqual([]);
  });
});

describe('the follow-up routes', () => {
  /** Answers every request with `data`, as JSON. */
  const answerWith = (data: unknown) => {
    answer = async (config) => ({ data, status: 200, statusText: 'OK', headers: {}, config });
  };

  it.each([
    ['the response report, for the API’s default weeks', () => fetchResponseReport(), '/leads/report', undefined],
    ['the response report, for some weeks', () => fetchResponseReport(4), '/leads/report', { weeks: '4' }],
    ['the follow-up settings', () => fetchFollowUpSettings(), '/follow-up-settings', undefined],
    ['the lead routing', () => fetchLeadRouting(), '/lead-routing', undefined],
    ['the dashboard, for a period', () => fetchDashboard({ period: '7d' }), '/overview', { period: '7d' }],
    [
      'the dashboard, for days and filters',
      () => fetchDashboard({ period: 'range', from: '2026-11-01', to: '2026-11-30', source: 'instagram', device: 'mobile', page: undefined }),
      '/overview',
      { period: 'range', from: '2026-11-01', to: '2026-11-30', source: 'instagram', device: 'mobile' },
    ],
  ])('reads %s', async (_name, call, url, params) => {
    answerWith({ read: true });
    await expect(call()).resolves.toEqual({ read: true });
    expect(sent).toMatchObject({ method: 'get', url });
    expect(sent!.params).toEqual(params);
  });

  it.each([
    ['unlinks a lead from its version', () => unlinkLead(7, 3), { method: 'post', url: '/leads/7/unlink', data: '{"version":3}' }],
    [
      'saves the follow-up settings',
      () => saveFollowUpSettings({ replies: { contact: { subject: 'S', text: 'T' }, applications: { subject: 'S2', text: 'T2' } }, targetMinutes: 90, version: 2 }),
      { method: 'put', url: '/follow-up-settings', data: '{"replies":{"contact":{"subject":"S","text":"T"},"applications":{"subject":"S2","text":"T2"}},"targetMinutes":90,"version":2}' },
    ],
    [
      'saves a member’s routing',
      () => saveLeadRouting(5, { kinds: ['contact'], away: true, telegramChatId: null }),
      { method: 'put', url: '/lead-routing/5', data: '{"kinds":["contact"],"away":true,"telegramChatId":null}' },
    ],
    ['turns the weekly report on', () => saveWeeklyReport({ weeklyReport: true }), { method: 'put', url: '/overview/weekly-report', data: '{"weeklyReport":true}' }],
  ])('%s with the CSRF token', async (_name, call, request) => {
    answerWith({ saved: true });
    await expect(call()).resolves.toEqual({ saved: true });
    expect(sent).toMatchObject(request);
    expect(sent!.headers.get(STAFF_CSRF_HEADER)).toBe('csrf-token');
  });
});
