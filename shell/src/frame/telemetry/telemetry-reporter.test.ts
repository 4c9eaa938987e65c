// The beacons are checked against the API's own schema: a test, never shipped to visitors.
// eslint-disable-next-line no-restricted-imports
import { Value } from '@sinclair/typebox/value';
// eslint-disable-next-line no-restricted-imports
import { TelemetryBatchSchema } from '@agency/shared/contracts';
import { onCLS, onFCP, onINP, onLCP, onTTFB, type MetricType } from 'web-vitals';
import {
  MASKED_EMAIL,
  MASKED_PHONE,
  PAGE_DATA_IDS,
  TELEMETRY_LIMITS,
  TELEMETRY_PATH,
  type BrowserErrorKind,
  type RemotesDocument,
  type TelemetryBatch,
} from '@agency/shared';
import { createReporter, ERROR_REPORT_DELAY_MS } from './telemetry-reporter';
import type { TelemetrySink } from './telemetry-capture';
import { readBlob } from './telemetry-page.fixture';

jest.mock('web-vitals', () => ({ onLCP: jest.fn(), onINP: jest.fn(), onCLS: jest.fn(), onFCP: jest.fn(), onTTFB: jest.fn() }));
jest.mock('@module-federation/enhanced/runtime', () => ({ registerRemotes: jest.fn() }));

const ORIGIN = 'http://localhost';

const REMOTES_DOCUMENT: RemotesDocument = {
  shell: { release: 'shell-1' },
  remotes: {
    home: { entry: '/remotes/home/h1/mf-manifest.json', release: 'h1' },
    blog: { entry: '/remotes/blog/b1/mf-manifest.json', release: 'b1' },
    forms: { entry: 'https://cdn.example/forms/mf-manifest.json', release: 'external' },
    staff: { entry: 'https://cdn.example/staff/mf-manifest.json', release: 'external' },
  },
};

let beacons: Blob[];
let sendBeacon: jest.Mock;
let fetchMock: jest.Mock;

/** The body of every beacon and fetch sent so far, in order. */
async function sentBodies(): Promise<{ body: TelemetryBatch; bytes: number; json: string }[]> {
  const fromBeacons = await Promise.all(beacons.map(async (blob) => ({ json: await readBlob(blob), bytes: blob.size })));
  const fromFetch = fetchMock.mock.calls.map(([, init]: [string, RequestInit]) => ({
    json: init.body as string,
    bytes: new Blob([init.body as string]).size,
  }));
  return [...fromBeacons, ...fromFetch].map(({ json, bytes }) => ({ body: JSON.parse(json) as TelemetryBatch, bytes, json }));
}

async function sent(): Promise<TelemetryBatch[]> {
  return (await sentBodies()).map(({ body }) => body);
}

/** The reporter's metric callback, as web-vitals got it, for each vital. */
function vitalsFeed(): (name: MetricType['name'], value: number) => void {
  return (name, value) => {
    const observe = { LCP: onLCP, INP: onINP, CLS: onCLS, FCP: onFCP, TTFB: onTTFB }[name] as jest.Mock;
    const [callback] = observe.mock.calls.at(-1) as [(metric: MetricType) => void];
    callback({ name, value } as MetricType);
  };
}

let visibility: DocumentVisibilityState = 'visible';
function setVisibility(state: DocumentVisibilityState): void {
  visibility = state;
  document.dispatchEvent(new Event('visibilitychange'));
}

/** An error whose stack's top frame is in `script`, in Chromium's format. */
function errorIn(script: string, message = 'boom', name = 'TypeError'): Error {
  const error = new Error(message);
  error.name = name;
  error.stack = `${name}: ${message}\n    at render (${script}:1:23456)\n    at commit (${ORIGIN}/static/js/main.1a2b3c.js:2:345)`;
  return error;
}

const SHELL_SCRIPT = `${ORIGIN}/static/js/main.1a2b3c.js`;

function report(reporter: TelemetrySink, error: unknown, kind: BrowserErrorKind = 'uncaught', remote?: string, page = '/'): void {
  reporter.error({ kind, error, remote, page });
}

function putRemotesDocument(document_: RemotesDocument | undefined): void {
  document.getElementById(PAGE_DATA_IDS.remotes)?.remove();
  if (!document_) return;
  const script = document.createElement('script');
  script.type = 'application/json';
  script.id = PAGE_DATA_IDS.remotes;
  script.textContent = JSON.stringify(document_);
  document.body.append(script);
}

// Each reporter listens on the page for its lifetime: the listeners of each test are removed after it.
const listeners: [EventTarget, string, EventListenerOrEventListenerObject][] = [];
function trackListeners(target: Window | Document): void {
  const original = target.addEventListener.bind(target);
  type Listener = EventListenerOrEventListenerObject;
  jest.spyOn(target, 'addEventListener').mockImplementation((type: string, listener: Listener, options?: boolean | AddEventListenerOptions) => {
    listeners.push([target, type, listener]);
    original(type, listener, options);
  });
}

beforeAll(() => {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
});

afterAll(() => {
  delete (document as { visibilityState?: unknown }).visibilityState;
});

beforeEach(() => {
  jest.clearAllMocks();
  visibility = 'visible';
  beacons = [];
  sendBeacon = jest.fn((_url: string, data: Blob) => {
    beacons.push(data);
    return true;
  });
  Object.defineProperty(navigator, 'sendBeacon', { configurable: true, writable: true, value: sendBeacon });
  fetchMock = jest.fn().mockResolvedValue({ ok: true, status: 204 });
  global.fetch = fetchMock;
  putRemotesDocument(REMOTES_DOCUMENT);
  window.__AGENCY_RELEASES__ = { shell: 'shell-1', remotes: {} };
  trackListeners(window);
  trackListeners(document);
});

afterEach(async () => {
  // The contract: whatever the reporter sends, the API accepts.
  for (const { body, bytes } of await sentBodies()) {
    expect([...Value.Errors(TelemetryBatchSchema, body)].map((error) => `${error.path}: ${error.message}`)).toEqual([]);
    expect(bytes).toBeLessThanOrEqual(TELEMETRY_LIMITS.bodyBytes);
  }
  for (const [target, type, listener] of listeners.splice(0)) target.removeEventListener(type, listener);
  jest.useRealTimers();
  jest.restoreAllMocks();
  putRemotesDocument(undefined);
  delete window.__AGENCY_RELEASES__;
  delete (navigator as { sendBeacon?: unknown }).sendBeacon;
});

describe('page views and Web Vitals', () => {
  it('sends the page view and each vital in one beacon when the page is hidden', async () => {
    const reporter = createReporter();
    const feed = vitalsFeed();
    for (const observe of [onLCP, onINP, onCLS, onFCP, onTTFB]) {
      expect(observe).toHaveBeenCalledWith(expect.any(Function), { reportAllChanges: true });
    }
    feed('TTFB', 120);
    feed('FCP', 800);
    feed('LCP', 1200);
    reporter.pageView({ page: '/blog/:postId', remotes: ['blog', 'home'] });
    feed('LCP', 1800.5);
    feed('CLS', 0.05);
    feed('INP', 96);
    expect(sendBeacon).not.toHaveBeenCalled();

    setVisibility('hidden');

    expect(sendBeacon).toHaveBeenCalledTimes(1);
    expect(sendBeacon).toHaveBeenCalledWith(TELEMETRY_PATH, expect.any(Blob));
    expect(beacons[0]!.type).toBe('application/json');
    const releases = { shell: 'shell-1', blog: 'b1', home: 'h1' };
    const [batch] = await sent();
    expect(batch).toEqual({
      page_views: [{ page: '/blog/:postId', releases }],
      vitals: expect.any(Array),
    });
    expect(batch!.vitals).toHaveLength(5);
    expect(batch!.vitals).toEqual(
      expect.arrayContaining([
        { name: 'TTFB', value: 120, page: '/blog/:postId', releases },
        { name: 'FCP', value: 800, page: '/blog/:postId', releases },
        { name: 'LCP', value: 1800.5, page: '/blog/:postId', releases },
        { name: 'CLS', value: 0.05, page: '/blog/:postId', releases },
        { name: 'INP', value: 96, page: '/blog/:postId', releases },
      ]),
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends each vital once, with the page the visitor landed on, and nothing when there is nothing new', async () => {
    const reporter = createReporter();
    const feed = vitalsFeed();
    reporter.pageView({ page: '/', remotes: ['home'] });
    feed('LCP', 1000);
    setVisibility('hidden');
    setVisibility('visible');
    setVisibility('hidden');
    window.dispatchEvent(new Event('pagehide'));
    expect(sendBeacon).toHaveBeenCalledTimes(1);

    // Back on the page: it moves to the blog and INP comes in; LCP changes no more reports.
    setVisibility('visible');
    reporter.pageView({ page: '/blog', remotes: ['blog'] });
    feed('INP', 200);
    feed('LCP', 5000);
    window.dispatchEvent(new Event('pagehide'));

    const [, second] = await sent();
    expect(second).toEqual({
      page_views: [{ page: '/blog', releases: { shell: 'shell-1', blog: 'b1' } }],
      vitals: [{ name: 'INP', value: 200, page: '/', releases: { shell: 'shell-1', home: 'h1' } }],
    });
    expect(sendBeacon).toHaveBeenCalledTimes(2);
  });

  it('keeps vitals until there is a page view to tie them to', async () => {
    const reporter = createReporter();
    vitalsFeed()('TTFB', 90);
    setVisibility('hidden');
    expect(sendBeacon).not.toHaveBeenCalled();
    reporter.pageView({ page: '/privacy', remotes: [] });
    window.dispatchEvent(new Event('pagehide'));
    expect(await sent()).toEqual([
      {
        page_views: [{ page: '/privacy', releases: { shell: 'shell-1' } }],
        vitals: [{ name: 'TTFB', value: 90, page: '/privacy', releases: { shell: 'shell-1' } }],
      },
    ]);
  });

  it(`sends every page view of a long visit, ${TELEMETRY_LIMITS.pageViews} a beacon, the vitals with the first`, async () => {
    const reporter = createReporter();
    vitalsFeed()('LCP', 900);
    const pages = Array.from({ length: TELEMETRY_LIMITS.pageViews * 2 + 1 }, (_, i) => (i % 2 ? '/blog/:postId' : '/blog'));
    for (const page of pages) reporter.pageView({ page, remotes: ['blog'] });
    window.dispatchEvent(new Event('pagehide'));
    const batches = await sent();
    expect(batches.map((batch) => [batch.page_views?.length, batch.vitals?.length])).toEqual([
      [TELEMETRY_LIMITS.pageViews, 1],
      [TELEMETRY_LIMITS.pageViews, undefined],
      [1, undefined],
    ]);
    expect(batches.flatMap((batch) => batch.page_views!.map((view) => view.page))).toEqual(pages);
  });

  it('caps a vital at the largest value the API takes', async () => {
    const reporter = createReporter();
    reporter.pageView({ page: '/', remotes: [] });
    vitalsFeed()('INP', TELEMETRY_LIMITS.vitalValue * 3);
    setVisibility('hidden');
    const [batch] = await sent();
    expect(batch!.vitals).toEqual([expect.objectContaining({ name: 'INP', value: TELEMETRY_LIMITS.vitalValue })]);
  });

  it('reads the releases from the remotes document in the page when the shell has not registered them yet', async () => {
    delete window.__AGENCY_RELEASES__;
    const reporter = createReporter();
    reporter.pageView({ page: '/', remotes: ['home', 'forms'] });
    setVisibility('hidden');
    expect((await sent())[0]!.page_views).toEqual([{ page: '/', releases: { shell: 'shell-1', home: 'h1', forms: 'external' } }]);
  });

  it('says "unknown" for a release the page does not name', async () => {
    putRemotesDocument(undefined);
    delete window.__AGENCY_RELEASES__;
    const reporter = createReporter();
    reporter.pageView({ page: '/', remotes: ['home'] });
    setVisibility('hidden');
    expect((await sent())[0]!.page_views).toEqual([{ page: '/', releases: { shell: 'unknown', home: 'unknown' } }]);
  });
});

describe('errors', () => {
  beforeEach(() => jest.useFakeTimers());

  it(`sends errors ${ERROR_REPORT_DELAY_MS} ms after the first, each distinct one once with how often it happened`, async () => {
    const reporter = createReporter();
    for (let i = 0; i < 3; i += 1) report(reporter, errorIn(SHELL_SCRIPT, 'x is undefined'));
    report(reporter, errorIn(SHELL_SCRIPT, 'y is undefined'));
    jest.advanceTimersByTime(ERROR_REPORT_DELAY_MS - 1);
    report(reporter, errorIn(SHELL_SCRIPT, 'x is undefined'));
    expect(sendBeacon).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(sendBeacon).toHaveBeenCalledTimes(1);
    const [batch] = await sent();
    expect(batch).toEqual({
      errors: [
        {
          kind: 'uncaught',
          app: 'shell',
          release: 'shell-1',
          page: '/',
          message: 'TypeError: x is undefined',
          stack: expect.stringContaining(`at render (${SHELL_SCRIPT}:1:23456)`),
          count: 4,
        },
        expect.objectContaining({ message: 'TypeError: y is undefined', count: 1 }),
      ],
    });
  });

  it('counts three identical errors as one with count 3, and a later repeat in a report of its own', async () => {
    const reporter = createReporter();
    for (let i = 0; i < 3; i += 1) report(reporter, new Error('same'), 'load_retry', 'blog');
    jest.advanceTimersByTime(ERROR_REPORT_DELAY_MS);
    report(reporter, new Error('same'), 'load_retry', 'blog');
    jest.advanceTimersByTime(ERROR_REPORT_DELAY_MS);
    const [first, second] = await sent();
    expect(first!.errors).toEqual([expect.objectContaining({ kind: 'load_retry', app: 'blog', release: 'b1', count: 3 })]);
    expect(second!.errors).toEqual([expect.objectContaining({ kind: 'load_retry', app: 'blog', release: 'b1', count: 1 })]);
  });

  it('tells errors of different kinds and apps apart', async () => {
    const reporter = createReporter();
    const error = new Error('Remote module blog/BlogTeaser is unavailable');
    report(reporter, error, 'load_retry', 'blog');
    report(reporter, error, 'load_failure', 'blog');
    report(reporter, error, 'load_failure', 'home');
    jest.advanceTimersByTime(ERROR_REPORT_DELAY_MS);
    const [batch] = await sent();
    expect(batch!.errors!.map(({ kind, app, release, count }) => [kind, app, release, count])).toEqual([
      ['load_retry', 'blog', 'b1', 1],
      ['load_failure', 'blog', 'b1', 1],
      ['load_failure', 'home', 'h1', 1],
    ]);
  });

  it(`counts an error at most ${TELEMETRY_LIMITS.errorCount} times in one report`, async () => {
    const reporter = createReporter();
    for (let i = 0; i < TELEMETRY_LIMITS.errorCount + 5; i += 1) report(reporter, 'flood', 'rejection');
    jest.advanceTimersByTime(ERROR_REPORT_DELAY_MS);
    expect((await sent())[0]!.errors).toEqual([expect.objectContaining({ message: 'flood', count: TELEMETRY_LIMITS.errorCount })]);
  });

  it(`sends at most ${TELEMETRY_LIMITS.errorsPerPageView} distinct errors per page view; a new page view allows more`, async () => {
    const reporter = createReporter();
    reporter.pageView({ page: '/', remotes: [] });
    const distinct = (i: number) => errorIn(SHELL_SCRIPT, `error ${i}`);
    for (let i = 0; i < TELEMETRY_LIMITS.errorsPerPageView + 5; i += 1) report(reporter, distinct(i));
    jest.advanceTimersByTime(ERROR_REPORT_DELAY_MS);
    // Past the limit, only errors already reported this page view are counted again.
    report(reporter, distinct(TELEMETRY_LIMITS.errorsPerPageView + 6));
    report(reporter, distinct(0));
    jest.advanceTimersByTime(ERROR_REPORT_DELAY_MS);

    reporter.pageView({ page: '/blog', remotes: [] });
    report(reporter, distinct(TELEMETRY_LIMITS.errorsPerPageView + 6), 'uncaught', undefined, '/blog');
    jest.advanceTimersByTime(ERROR_REPORT_DELAY_MS);

    const batches = await sent();
    expect(batches.map((batch) => batch.errors?.length)).toEqual([TELEMETRY_LIMITS.errorsPerPageView, 1, 1]);
    expect(batches[0]!.errors!.map((error) => error.message)).toEqual(
      Array.from({ length: TELEMETRY_LIMITS.errorsPerPageView }, (_, i) => `TypeError: error ${i}`),
    );
    expect(batches[1]!.errors).toEqual([expect.objectContaining({ message: 'TypeError: error 0', count: 1 })]);
    expect(batches[2]).toEqual({
      page_views: [{ page: '/blog', releases: { shell: 'shell-1' } }],
      errors: [expect.objectContaining({ message: `TypeError: error ${TELEMETRY_LIMITS.errorsPerPageView + 6}`, page: '/blog' })],
    });
  });

  it('loses no error when a new page view allows more before the last ones are sent', async () => {
    // More than one beacon takes: the rest go in another.
    const reporter = createReporter();
    reporter.pageView({ page: '/', remotes: [] });
    for (let i = 0; i < TELEMETRY_LIMITS.errorsPerPageView; i += 1) report(reporter, errorIn(SHELL_SCRIPT, `error ${i}`));
    reporter.pageView({ page: '/blog', remotes: [] });
    for (let i = 0; i < 3; i += 1) report(reporter, errorIn(SHELL_SCRIPT, `later ${i}`), 'uncaught', undefined, '/blog');
    jest.advanceTimersByTime(ERROR_REPORT_DELAY_MS);
    const errors = (await sent()).flatMap((batch) => batch.errors ?? []);
    expect(errors).toHaveLength(TELEMETRY_LIMITS.errorsPerPageView + 3);
  });

  it('sends pending errors at once when the page is hidden', async () => {
    const reporter = createReporter();
    report(reporter, errorIn(SHELL_SCRIPT));
    setVisibility('hidden');
    expect(sendBeacon).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(ERROR_REPORT_DELAY_MS);
    expect(sendBeacon).toHaveBeenCalledTimes(1);
  });

  it('masks e-mail addresses and phone numbers in messages and stacks, and drops query strings', async () => {
    const reporter = createReporter();
    const error = errorIn(
      'https://cdn.example/forms/9.js?v=2',
      'Не вдалося надіслати для olena@example.com, тел. +380 67 123 45 67 (https://agency.example/?utm_source=fb)',
      'Error',
    );
    report(reporter, error);
    report(reporter, 'Відмова: 067-123-45-67', 'rejection');
    jest.advanceTimersByTime(ERROR_REPORT_DELAY_MS);
    const [first] = await sentBodies();
    const { json, body } = first!;
    expect(json).not.toMatch(/olena|example\.com|123 45 67|123-45-67|utm_source|\?v=2/);
    expect(body.errors).toEqual([
      expect.objectContaining({
        app: 'forms',
        release: 'external',
        message: `Error: Не вдалося надіслати для ${MASKED_EMAIL}, тел. ${MASKED_PHONE} (https://agency.example/)`,
        stack: expect.stringContaining('at render (https://cdn.example/forms/9.js:1:23456)'),
      }),
      expect.objectContaining({ kind: 'rejection', app: 'shell', message: `Відмова: ${MASKED_PHONE}`, stack: '' }),
    ]);
  });

  it('cuts long messages and stacks to what a beacon of the most errors can carry', async () => {
    const reporter = createReporter();
    const error = new Error('я'.repeat(TELEMETRY_LIMITS.message * 2));
    error.stack = `Error: ${'я'.repeat(100)}\n${`    at f (${SHELL_SCRIPT}:1:2)\n`.repeat(500)}`;
    report(reporter, error);
    jest.advanceTimersByTime(ERROR_REPORT_DELAY_MS);
    const [reported] = (await sent())[0]!.errors!;
    expect(reported!.message.length).toBeLessThanOrEqual(TELEMETRY_LIMITS.message);
    expect(reported!.stack!.length).toBeLessThanOrEqual(TELEMETRY_LIMITS.stack);
  });
});

describe('which app an error belongs to', () => {
  beforeEach(() => jest.useFakeTimers());

  async function attributed(error: unknown, kind: BrowserErrorKind = 'uncaught', remote?: string) {
    const reporter = createReporter();
    report(reporter, error, kind, remote);
    jest.advanceTimersByTime(ERROR_REPORT_DELAY_MS);
    const errors = (await sent()).flatMap((batch) => batch.errors ?? []);
    return errors.map(({ app, release }) => ({ app, release }));
  }

  it("attributes an uncaught error in a remote's files to that remote and its release", async () => {
    expect(await attributed(errorIn(`${ORIGIN}/remotes/blog/b1/323171529b.js`))).toEqual([{ app: 'blog', release: 'b1' }]);
  });

  it('finds a remote served from another origin by its manifest’s folder', async () => {
    expect(await attributed(errorIn('https://cdn.example/forms/412.abc.js'))).toEqual([{ app: 'forms', release: 'external' }]);
  });

  it("reads Firefox's and Safari's stack format", async () => {
    const error = new Error('boom');
    error.stack = `render@${ORIGIN}/remotes/home/h1/55.js:1:2\n@${SHELL_SCRIPT}:3:4`;
    expect(await attributed(error)).toEqual([{ app: 'home', release: 'h1' }]);
  });

  it("attributes an error in the page's own origin to the shell", async () => {
    expect(await attributed(errorIn(SHELL_SCRIPT))).toEqual([{ app: 'shell', release: 'shell-1' }]);
  });

  it('attributes an error without a stack (a rejected string) to the shell', async () => {
    expect(await attributed('offline', 'rejection')).toEqual([{ app: 'shell', release: 'shell-1' }]);
  });

  it('takes the remote a boundary or loader names, wherever the stack points', async () => {
    expect(await attributed(errorIn(SHELL_SCRIPT), 'boundary', 'blog')).toEqual([{ app: 'blog', release: 'b1' }]);
  });

  it('looks past frames that are not the site’s', async () => {
    const error = new Error('boom');
    error.stack = `Error: boom\n    at x (chrome-extension://abcdefgh/content.js:1:2)\n    at y (${ORIGIN}/remotes/blog/b1/1.js:5:6)`;
    expect(await attributed(error)).toEqual([{ app: 'blog', release: 'b1' }]);
  });

  it("drops an error from a browser extension's or another site's script", async () => {
    const extension = new Error('boom');
    extension.stack = 'Error: boom\n    at x (chrome-extension://abcdefgh/content.js:1:2)\n    at <anonymous>:1:1';
    expect(await attributed(extension)).toEqual([]);
    const thirdParty = new Error('boom');
    thirdParty.stack = 'Error: boom\n    at w (https://third-party.example/widget.js:1:2)\n    at https://third-party.example/loader.js:3:4';
    expect(await attributed(thirdParty)).toEqual([]);
    const firefoxExtension = new Error('boom');
    firefoxExtension.stack = 'x@moz-extension://1234-5678/content.js:1:2';
    expect(await attributed(firefoxExtension)).toEqual([]);
    expect(sendBeacon).not.toHaveBeenCalled();
  });

});

describe('sending', () => {
  it('posts with fetch (keepalive) when the browser refuses the beacon', async () => {
    sendBeacon.mockReturnValue(false);
    const reporter = createReporter();
    reporter.pageView({ page: '/', remotes: [] });
    setVisibility('hidden');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledWith(TELEMETRY_PATH, {
      method: 'POST',
      body: JSON.stringify({ page_views: [{ page: '/', releases: { shell: 'shell-1' } }] }),
      keepalive: true,
      headers: { 'content-type': 'application/json' },
    });
  });

  it('falls back to fetch when sendBeacon throws, and throws nothing when fetch fails too', async () => {
    sendBeacon.mockImplementation(() => {
      throw new TypeError('Illegal invocation');
    });
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const reporter = createReporter();
      reporter.pageView({ page: '/', remotes: [] });
      expect(() => setVisibility('hidden')).not.toThrow();
      expect(fetchMock).toHaveBeenCalledWith(TELEMETRY_PATH, expect.objectContaining({ keepalive: true }));
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('uses fetch where there is no sendBeacon', async () => {
    delete (navigator as { sendBeacon?: unknown }).sendBeacon;
    const reporter = createReporter();
    reporter.pageView({ page: '/', remotes: [] });
    window.dispatchEvent(new Event('pagehide'));
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it(`splits a batch of more than half of ${TELEMETRY_LIMITS.bodyBytes} bytes into beacons each within the limit`, async () => {
    jest.useFakeTimers();
    const reporter = createReporter();
    reporter.pageView({ page: '/blog/:postId', remotes: ['blog', 'home', 'forms'] });
    for (let i = 0; i < TELEMETRY_LIMITS.errors; i += 1) {
      // Ukrainian text: two bytes a character.
      const error = new Error(`${i} ${'Помилка'.repeat(100)}`);
      error.stack = `Error: ${i}\n${`    at Компонент${i} (${ORIGIN}/remotes/blog/b1/323171529b.js:1:23456)\n`.repeat(40)}`;
      report(reporter, error, 'uncaught', undefined, '/blog/:postId');
    }
    setVisibility('hidden');

    const bodies = await sentBodies();
    expect(bodies.length).toBeGreaterThan(1);
    for (const { bytes, json } of bodies) {
      expect(bytes).toBeLessThanOrEqual(TELEMETRY_LIMITS.bodyBytes);
      expect(json.length).toBeLessThanOrEqual(TELEMETRY_LIMITS.bodyBytes / 2);
    }
    const errors = bodies.flatMap(({ body }) => body.errors ?? []);
    expect(errors.map((error) => error.message.split(' ')[1])).toEqual(Array.from({ length: TELEMETRY_LIMITS.errors }, (_, i) => String(i)));
    // The page view goes once, with the first part.
    expect(bodies.flatMap(({ body }) => body.page_views ?? [])).toHaveLength(1);
    expect(bodies[0]!.body.page_views).toHaveLength(1);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends a busy page as beacons the API accepts', async () => {
    jest.useFakeTimers();
    const reporter = createReporter();
    const feed = vitalsFeed();
    for (let view = 0; view < TELEMETRY_LIMITS.pageViews + 3; view += 1) {
      reporter.pageView({ page: view % 2 ? '/blog/:postId' : '*', remotes: ['blog', 'forms', 'home'] });
      for (let i = 0; i < TELEMETRY_LIMITS.errorsPerPageView; i += 1) {
        const error = errorIn(`${ORIGIN}/remotes/home/h1/${i}.js`, `помилка ${view}-${i} для a@b.ua`);
        report(reporter, error, i % 2 ? 'uncaught' : 'boundary', i % 3 ? undefined : 'forms');
      }
    }
    feed('CLS', 0.31);
    feed('LCP', 2500);
    jest.advanceTimersByTime(ERROR_REPORT_DELAY_MS);
    setVisibility('hidden');
    setVisibility('visible');
    setVisibility('hidden');
    const batches = await sent();
    expect(batches.flatMap((batch) => batch.page_views ?? [])).toHaveLength(TELEMETRY_LIMITS.pageViews + 3);
    expect(batches.flatMap((batch) => batch.vitals ?? [])).toHaveLength(2);
    expect(batches.flatMap((batch) => batch.errors ?? [])).toHaveLength((TELEMETRY_LIMITS.pageViews + 3) * TELEMETRY_LIMITS.errorsPerPageView);
    // Checked against TelemetryBatchSchema after each test.
  });
});

describe('after the shell registered the remotes', () => {
  // A fresh registration per test: remotes-config keeps it for the page's lifetime.
  async function freshModules() {
    let modules!: [typeof import('./telemetry-reporter'), typeof import('../federation/remotes-config')];
    await jest.isolateModulesAsync(async () => {
      modules = [await import('./telemetry-reporter'), await import('../federation/remotes-config')];
    });
    return modules;
  }

  const serve = (remotes: RemotesDocument) => fetchMock.mockResolvedValueOnce({ ok: true, json: () => Promise.resolve(remotes) });

  it('reports a remote at the release it moved to after a deploy', async () => {
    const [{ createReporter: create }, { registerRuntimeRemotes, refreshRemote }] = await freshModules();
    await registerRuntimeRemotes();
    serve({ ...REMOTES_DOCUMENT, remotes: { ...REMOTES_DOCUMENT.remotes, blog: { entry: '/remotes/blog/b2/mf-manifest.json', release: 'b2' } } });
    await expect(refreshRemote('blog')).resolves.toBe(true);
    fetchMock.mockClear();

    jest.useFakeTimers();
    const reporter = create();
    reporter.pageView({ page: '/blog', remotes: ['blog'] });
    report(reporter, errorIn(`${ORIGIN}/remotes/blog/b2/77.js`));
    jest.advanceTimersByTime(ERROR_REPORT_DELAY_MS);
    expect(await sent()).toEqual([
      {
        page_views: [{ page: '/blog', releases: { shell: 'shell-1', blog: 'b2' } }],
        errors: [expect.objectContaining({ app: 'blog', release: 'b2' })],
      },
    ]);
  });

  it('finds the remotes where the shell registered them when the page has no remotes document (the dev server)', async () => {
    putRemotesDocument(undefined);
    delete window.__AGENCY_RELEASES__;
    const [{ createReporter: create }, { registerRuntimeRemotes }] = await freshModules();
    serve({
      shell: { release: 'dev' },
      remotes: {
        home: { entry: 'http://localhost:8081/mf-manifest.json', release: 'dev' },
        blog: { entry: 'http://localhost:8082/mf-manifest.json', release: 'dev' },
        forms: { entry: 'https://forms.example/mf-manifest.json', release: 'external' },
        staff: { entry: 'https://staff.example/mf-manifest.json', release: 'external' },
      },
    });
    await registerRuntimeRemotes();
    fetchMock.mockClear();

    jest.useFakeTimers();
    const reporter = create();
    report(reporter, errorIn('http://localhost:8082/src_features_blog-post_BlogPostPage_tsx.js'));
    report(reporter, errorIn('https://forms.example/main.js'));
    report(reporter, errorIn(SHELL_SCRIPT));
    jest.advanceTimersByTime(ERROR_REPORT_DELAY_MS);
    expect((await sent())[0]!.errors!.map(({ app, release }) => [app, release])).toEqual([
      ['blog', 'dev'],
      ['forms', 'external'],
      ['shell', 'dev'],
    ]);
  });
});
