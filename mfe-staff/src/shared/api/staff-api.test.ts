import { AxiosError, AxiosHeaders, type InternalAxiosRequestConfig } from 'axios';
import { STAFF_CSRF_HEADER } from '@agency/shared';
import { messageOf, setCsrfToken, staffApi, staffDownload } from './staff-api';

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
