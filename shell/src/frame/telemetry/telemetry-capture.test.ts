import { waitFor } from '@testing-library/react';
import {
  PAGE_DATA_IDS,
  readSessionAttribution,
  TELEMETRY_PATH,
  writeSessionAttribution,
  type TelemetryBatch,
} from '@agency/shared';
import type { TelemetrySink } from './telemetry-capture';
import { putRemotesInPage, setSample } from './telemetry-page.fixture';

jest.mock('./telemetry-reporter', () => ({ createReporter: jest.fn() }));
jest.mock('@module-federation/enhanced/runtime', () => ({ registerRemotes: jest.fn() }));

type Capture = typeof import('./telemetry-capture');
type MockedSink = { [K in keyof TelemetrySink]: jest.Mock };

let readyState: DocumentReadyState;
let sink: MockedSink;
let createReporter: jest.Mock;

/**
 * A fresh copy of the module (it keeps its state for the page's lifetime) and of the mocked
 * reporter it loads later, from the same module registry.
 */
async function freshCapture(): Promise<Capture> {
  jest.resetModules();
  const capture = await import('./telemetry-capture');
  createReporter = (await import('./telemetry-reporter')).createReporter as jest.Mock;
  sink = { error: jest.fn(), pageView: jest.fn() };
  createReporter.mockReturnValue(sink);
  return capture;
}

function dispatchError(error: unknown): void {
  window.dispatchEvent(new ErrorEvent('error', { error, message: String(error) }));
}

/** jsdom has no PromiseRejectionEvent: an event with its `reason`. */
function dispatchRejection(reason: unknown): void {
  window.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason }));
}

/** The page finishes loading: the load event, then (no requestIdleCallback in jsdom) a timeout. */
function finishLoading(): void {
  readyState = 'complete';
  window.dispatchEvent(new Event('load'));
}

/** The visitor's first act on the page: a tap. */
function tap(): void {
  window.dispatchEvent(new Event('pointerdown'));
}

function hidePage(): void {
  Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'hidden' });
  document.dispatchEvent(new Event('visibilitychange'));
}

let beacons: { url: string; body: Blob }[] = [];

/** Records every beacon the page sends (jsdom has no sendBeacon). */
function mockSendBeacon(): void {
  beacons = [];
  Object.assign(navigator, {
    sendBeacon: jest.fn((url: string, body: Blob) => {
      beacons.push({ url, body });
      return true;
    }),
  });
}

const sentBatches = () =>
  Promise.all(
    beacons.map(
      ({ body }) =>
        new Promise<TelemetryBatch>((resolve) => {
          const reader = new FileReader();
          reader.onload = () => resolve(JSON.parse(reader.result as string) as TelemetryBatch);
          reader.readAsText(body);
        }),
    ),
  );

/** Lets the loading chain (load event, idle wait, the reporter's import) run its course. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
}

// Each copy of the module listens on window and document: the listeners of each test are removed after it.
type Listening = [string, EventListenerOrEventListenerObject, boolean | AddEventListenerOptions | undefined];
const listeners: Listening[] = [];
const documentListeners: Listening[] = [];

beforeAll(() => {
  Object.defineProperty(document, 'readyState', { configurable: true, get: () => readyState });
});

afterAll(() => {
  delete (document as { readyState?: unknown }).readyState;
});

beforeEach(() => {
  readyState = 'loading';
  // The page's clock stands still: a page view's engaged time is 0 unless a test moves it.
  jest.spyOn(performance, 'now').mockReturnValue(0);
  const original = window.addEventListener.bind(window);
  jest.spyOn(window, 'addEventListener').mockImplementation((type, listener, options) => {
    if (listener) listeners.push([type, listener, options]);
    original(type, listener, options);
  });
  const originalOnDocument = document.addEventListener.bind(document);
  jest.spyOn(document, 'addEventListener').mockImplementation((type, listener, options) => {
    if (listener) documentListeners.push([type, listener, options]);
    originalOnDocument(type, listener, options);
  });
});

afterEach(() => {
  for (const [type, listener, options] of listeners.splice(0)) window.removeEventListener(type, listener, options);
  for (const [type, listener, options] of documentListeners.splice(0)) document.removeEventListener(type, listener, options);
  delete (document as { visibilityState?: unknown }).visibilityState;
  jest.restoreAllMocks();
  setSample(undefined);
  document.body.replaceChildren();
  window.history.replaceState(null, '', '/');
});

it('runs in jsdom without requestIdleCallback (the timeout fallback)', () => {
  expect('requestIdleCallback' in window).toBe(false);
});

describe.each([
  ['no meta tag', undefined],
  ['a sample of 0', '0'],
  ['a sample that is not a number', 'yes'],
])('with %s', (_case, content) => {
  it('catches nothing, reports nothing and loads no reporter', async () => {
    setSample(content);
    const { startTelemetry, reportError, reportPageView } = await freshCapture();
    startTelemetry();
    expect(window.addEventListener).not.toHaveBeenCalledWith('error', expect.anything());
    expect(window.addEventListener).not.toHaveBeenCalledWith('unhandledrejection', expect.anything());
    reportError('boundary', new Error('boom'), 'blog');
    reportPageView();
    finishLoading();
    await settle();
    expect(createReporter).not.toHaveBeenCalled();
  });
});

describe('with a sample of 1', () => {
  beforeEach(() => setSample('1'));

  it('loads the reporter once the page has loaded when errors happened, and hands it what happened before, in order', async () => {
    const { startTelemetry, reportError, reportPageView } = await freshCapture();
    startTelemetry();

    const early = new TypeError('x is undefined');
    dispatchError(early);
    dispatchRejection('offline');
    // A cross-origin script's "Script error." carries no error: nothing to report.
    window.dispatchEvent(new ErrorEvent('error', { message: 'Script error.' }));

    window.history.pushState(null, '', '/blog/12?utm_source=fb');
    document.body.innerHTML = `
      <div data-remote-module="blog/BlogPostPage"></div>
      <div data-remote-pending="home/ContactDetails"></div>
      <div data-remote-module="blog/BlogTeaser"></div>`;
    reportPageView();
    const boundary = new Error('render failed');
    reportError('boundary', boundary, 'blog');

    await settle();
    expect(createReporter).not.toHaveBeenCalled();

    finishLoading();
    await waitFor(() => expect(createReporter).toHaveBeenCalledTimes(1));

    expect(sink.error.mock.calls).toEqual([
      [{ kind: 'uncaught', error: early, remote: undefined, page: '/' }],
      [{ kind: 'rejection', error: 'offline', remote: undefined, page: '/' }],
      [{ kind: 'boundary', error: boundary, remote: 'blog', page: '/blog/:postId' }],
    ]);
    // With the dashboard's counting of it: the path, not the pattern.
    expect(sink.pageView.mock.calls).toEqual([
      [{ page: '/blog/:postId', remotes: ['blog', 'home'], analytics: expect.objectContaining({ path: '/blog/12', page: '/blog/:postId', remotes: ['blog', 'home'] }) }],
    ]);
    // Page views and errors reach the reporter in the order they happened.
    expect(sink.pageView.mock.invocationCallOrder[0]).toBeLessThan(sink.error.mock.invocationCallOrder[2]!);
    expect(sink.pageView.mock.invocationCallOrder[0]).toBeGreaterThan(sink.error.mock.invocationCallOrder[1]!);
  });

  it('hands later errors and page views straight to the reporter', async () => {
    const { startTelemetry, reportPageView } = await freshCapture();
    readyState = 'complete';
    startTelemetry();
    tap();
    await waitFor(() => expect(createReporter).toHaveBeenCalledTimes(1));

    const late = new Error('late');
    dispatchError(late);
    expect(sink.error).toHaveBeenCalledWith({ kind: 'uncaught', error: late, remote: undefined, page: '/' });
    window.history.pushState(null, '', '/nowhere');
    reportPageView();
    expect(sink.pageView).toHaveBeenCalledWith({ page: '*', remotes: [], analytics: expect.objectContaining({ path: '/nowhere', page: '*' }) });
  });

  it.each(['pointerdown', 'keydown', 'touchstart', 'wheel', 'scroll'])(
    'loads no reporter on a page nobody acts on, and loads it at the first %s once the page has loaded',
    async (type) => {
      const { startTelemetry, reportPageView } = await freshCapture();
      startTelemetry();
      reportPageView();
      window.dispatchEvent(new Event(type));
      await settle();
      expect(createReporter).not.toHaveBeenCalled();

      finishLoading();
      await waitFor(() => expect(createReporter).toHaveBeenCalledTimes(1));
      expect(sink.pageView).toHaveBeenCalledWith({ page: '/', remotes: [], analytics: expect.objectContaining({ path: '/' }) });
    },
  );

  it('loads the reporter once the page has loaded when the visitor had scrolled before telemetry started', async () => {
    const { startTelemetry } = await freshCapture();
    window.scrollY = 640;
    try {
      startTelemetry();
      finishLoading();
      await waitFor(() => expect(createReporter).toHaveBeenCalledTimes(1));
    } finally {
      window.scrollY = 0;
    }
  });

  it('loads no reporter after the load event alone', async () => {
    const { startTelemetry, reportPageView } = await freshCapture();
    startTelemetry();
    reportPageView();
    finishLoading();
    await settle();
    expect(createReporter).not.toHaveBeenCalled();
  });

  describe('a page hidden before the reporter loaded', () => {
    beforeEach(() => {
      // The remotes document the server put in the page names the releases.
      putRemotesInPage();
      mockSendBeacon();
    });

    afterEach(() => {
      document.getElementById(PAGE_DATA_IDS.remotes)?.remove();
      delete (navigator as { sendBeacon?: unknown }).sendBeacon;
    });

    it('sends its page views itself, and the reporter, loaded then, does not send them again', async () => {
      const { startTelemetry, reportPageView } = await freshCapture();
      startTelemetry();
      finishLoading();
      document.body.innerHTML = '<div data-remote-module="home/HeroSection"></div>';
      reportPageView();
      await settle();

      hidePage();
      expect(beacons.map(({ url }) => url)).toEqual([TELEMETRY_PATH]);
      await expect(sentBatches()).resolves.toEqual([
        { page_views: [{ page: '/', releases: { shell: 'shell-7', home: 'h3' }, analytics: { path: '/', device: 'desktop', engaged_ms: 0 } }] },
      ]);

      // Hidden is a moment to load the reporter too (a tab in the background lives on): it gets
      // the page view for its vitals, marked as sent.
      await waitFor(() => expect(createReporter).toHaveBeenCalledTimes(1));
      expect(sink.pageView).toHaveBeenCalledWith({ page: '/', remotes: ['home'], sent: true, analytics: expect.objectContaining({ path: '/', sent: true }) });
      window.dispatchEvent(new Event('pagehide'));
      expect(beacons).toHaveLength(1);
    });

    it('sends with them the vitals it knows, the largest paint and layout shifts seen from the start, and the reporter does not send those again', async () => {
      // The browser's timeline as a PerformanceObserver and the page's timing show it.
      const observers: { type: string; callback: PerformanceObserverCallback }[] = [];
      const emit = (type: string, entries: object[]) => {
        for (const observer of observers.filter((candidate) => candidate.type === type)) {
          observer.callback({ getEntries: () => entries } as PerformanceObserverEntryList, {} as PerformanceObserver);
        }
      };
      (globalThis as { PerformanceObserver?: unknown }).PerformanceObserver = Object.assign(
        class {
          constructor(private readonly callback: PerformanceObserverCallback) {}
          observe({ type }: { type: string }) {
            observers.push({ type, callback: this.callback });
          }
        },
        { supportedEntryTypes: ['largest-contentful-paint', 'layout-shift', 'paint', 'navigation'] },
      );
      // jsdom's performance has no timeline of entries.
      Object.assign(performance, {
        getEntriesByType: (type: string) => (type === 'navigation' ? [{ responseStart: 42 }] : []),
        getEntriesByName: (name: string) => (name === 'first-contentful-paint' ? [{ startTime: 310 }] : []),
      });
      try {
        const { startTelemetry, reportPageView } = await freshCapture();
        startTelemetry();
        reportPageView();
        emit('largest-contentful-paint', [{ startTime: 310 }, { startTime: 480 }]);
        // Two shifts in one session window, a third after more than a second: the largest window counts.
        emit('layout-shift', [
          { startTime: 500, value: 0.02, hadRecentInput: false },
          { startTime: 900, value: 0.01, hadRecentInput: false },
          { startTime: 2500, value: 0.025, hadRecentInput: false },
          { startTime: 2600, value: 0.5, hadRecentInput: true },
        ]);
        window.dispatchEvent(new Event('pagehide'));

        const releases = { shell: 'shell-7' };
        const [batch] = await sentBatches();
        expect(batch!.page_views).toEqual([{ page: '/', releases, analytics: { path: '/', device: 'desktop', engaged_ms: 0 } }]);
        expect(batch!.vitals).toEqual([
          { name: 'LCP', value: 480, page: '/', releases },
          { name: 'FCP', value: 310, page: '/', releases },
          { name: 'TTFB', value: 42, page: '/', releases },
          { name: 'CLS', value: expect.closeTo(0.03, 5), page: '/', releases },
        ]);

        finishLoading();
        hidePage();
        await waitFor(() => expect(createReporter).toHaveBeenCalledWith(['LCP', 'FCP', 'TTFB', 'CLS']));
      } finally {
        delete (globalThis as { PerformanceObserver?: unknown }).PerformanceObserver;
        delete (performance as { getEntriesByType?: unknown }).getEntriesByType;
        delete (performance as { getEntriesByName?: unknown }).getEntriesByName;
      }
    });

    it('sends its page views when it is left (pagehide), once', async () => {
      const { startTelemetry, reportPageView } = await freshCapture();
      startTelemetry();
      reportPageView();
      window.dispatchEvent(new Event('pagehide'));
      window.dispatchEvent(new Event('pagehide'));
      await expect(sentBatches()).resolves.toEqual([{ page_views: [{ page: '/', releases: { shell: 'shell-7' }, analytics: { path: '/', device: 'desktop', engaged_ms: 0 } }] }]);
    });

    it('sends nothing itself once the reporter is there', async () => {
      const { startTelemetry, reportPageView } = await freshCapture();
      startTelemetry();
      finishLoading();
      tap();
      await waitFor(() => expect(createReporter).toHaveBeenCalledTimes(1));
      reportPageView();
      hidePage();
      window.dispatchEvent(new Event('pagehide'));
      expect(beacons).toEqual([]);
      expect(sink.pageView).toHaveBeenCalledWith({ page: '/', remotes: [], analytics: expect.objectContaining({ path: '/' }) });
    });
  });

  it('reports a loader’s failures against the remote, on the page it happened', async () => {
    const { startTelemetry, reportError } = await freshCapture();
    readyState = 'complete';
    startTelemetry();
    window.history.pushState(null, '', '/privacy');
    const failure = new Error('ChunkLoadError');
    reportError('load_retry', failure, 'home');
    reportError('load_failure', failure, 'home');
    await waitFor(() => expect(sink.error).toHaveBeenCalledTimes(2));
    expect(sink.error.mock.calls.map(([captured]) => [captured.kind, captured.remote, captured.page])).toEqual([
      ['load_retry', 'home', '/privacy'],
      ['load_failure', 'home', '/privacy'],
    ]);
  });

  it('waits for an idle moment where the browser has requestIdleCallback', async () => {
    let idle: (() => void) | undefined;
    const requestIdleCallback = jest.fn((callback: () => void) => {
      idle = callback;
      return 1;
    });
    Object.assign(window, { requestIdleCallback });
    try {
      const { startTelemetry } = await freshCapture();
      startTelemetry();
      finishLoading();
      tap();
      await settle();
      expect(requestIdleCallback).toHaveBeenCalledWith(expect.any(Function), { timeout: 3000 });
      expect(createReporter).not.toHaveBeenCalled();
      idle!();
      await waitFor(() => expect(createReporter).toHaveBeenCalledTimes(1));
    } finally {
      delete (window as { requestIdleCallback?: unknown }).requestIdleCallback;
    }
  });

  it('holds at most 50 calls until the reporter loads', async () => {
    const { startTelemetry, reportError } = await freshCapture();
    startTelemetry();
    for (let i = 0; i < 60; i += 1) reportError('uncaught', new Error(`error ${i}`));
    finishLoading();
    await waitFor(() => expect(createReporter).toHaveBeenCalled());
    expect(sink.error).toHaveBeenCalledTimes(50);
    expect(sink.error.mock.calls.at(-1)![0].error.message).toBe('error 49');
  });

  it('starts once, however often it is called', async () => {
    const { startTelemetry } = await freshCapture();
    readyState = 'complete';
    startTelemetry();
    startTelemetry();
    tap();
    tap();
    await waitFor(() => expect(createReporter).toHaveBeenCalledTimes(1));
    dispatchError(new Error('once'));
    expect(sink.error).toHaveBeenCalledTimes(1);
    await settle();
    expect(createReporter).toHaveBeenCalledTimes(1);
  });

  it('leaves the page as it is when the reporter cannot load, and reports nothing after', async () => {
    const { startTelemetry, reportError, reportPageView } = await freshCapture();
    createReporter.mockImplementation(() => {
      throw new Error('Loading chunk telemetry failed');
    });
    startTelemetry();
    reportError('uncaught', new Error('early'));
    finishLoading();
    await settle();
    expect(createReporter).toHaveBeenCalledTimes(1);
    expect(() => {
      reportError('boundary', new Error('later'), 'blog');
      reportPageView();
      dispatchError(new Error('uncaught later'));
    }).not.toThrow();
    expect(sink.error).not.toHaveBeenCalled();
    expect(sink.pageView).not.toHaveBeenCalled();
  });
});

describe('sampling', () => {
  it.each([
    [0.1, true],
    [0.25, false],
    [0.9, false],
  ])('with a sample of 0.25 and a draw of %s, reports: %s', async (draw, reports) => {
    setSample('0.25');
    jest.spyOn(Math, 'random').mockReturnValue(draw);
    const { startTelemetry, reportPageView } = await freshCapture();
    readyState = 'complete';
    startTelemetry();
    reportPageView();
    tap();
    await settle();
    expect(createReporter).toHaveBeenCalledTimes(reports ? 1 : 0);
    expect(sink.pageView).toHaveBeenCalledTimes(reports ? 1 : 0);
  });
});

describe('counting the session’s visit', () => {
  const SESSION_ID = 'a'.repeat(32);
  const ATTRIBUTION = { utm_source: 'facebook', utm_medium: 'cpc', utm_campaign: 'black-friday', landing_path: '/' };
  const VISIT = { id: SESSION_ID, source: 'facebook', medium: 'cpc', campaign: 'black-friday' };

  beforeEach(() => {
    mockSendBeacon();
    writeSessionAttribution({ sessionId: SESSION_ID, attribution: ATTRIBUTION });
  });

  afterEach(() => {
    delete (navigator as { sendBeacon?: unknown }).sendBeacon;
    sessionStorage.clear();
  });

  it('sends it with the page views of a page load in the sample, and marks it counted', async () => {
    setSample('1');
    const { startTelemetry, reportPageView } = await freshCapture();
    startTelemetry();
    reportPageView();
    hidePage();
    await expect(sentBatches()).resolves.toEqual([{ page_views: [expect.objectContaining({ page: '/' })], session: VISIT }]);
    expect(readSessionAttribution()?.counted).toBe(true);
  });

  it('sends it with the page views of page loads outside the sample (sampled: false), and marks it counted', async () => {
    setSample('0.25');
    jest.spyOn(Math, 'random').mockReturnValue(0.9);
    const { startTelemetry, reportPageView } = await freshCapture();
    startTelemetry();
    reportPageView();
    hidePage();
    window.dispatchEvent(new Event('pagehide'));
    const outside = { page: '/', releases: { shell: 'unknown' }, sampled: false, analytics: { path: '/', device: 'desktop', engaged_ms: 0 } };
    await expect(sentBatches()).resolves.toEqual([{ page_views: [outside], session: VISIT }]);
    expect(readSessionAttribution()?.counted).toBe(true);
    expect(createReporter).not.toHaveBeenCalled();

    // The session's next page load, outside the sample too: its page views are counted, and carry the visit (the API counts it once).
    const next = await freshCapture();
    next.startTelemetry();
    window.history.replaceState(null, '', '/privacy');
    next.reportPageView();
    hidePage();
    await expect(sentBatches()).resolves.toEqual([
      { page_views: [outside], session: VISIT },
      { page_views: [{ ...outside, page: '/privacy', analytics: { ...outside.analytics, path: '/privacy' } }], session: VISIT },
    ]);
    expect(createReporter).not.toHaveBeenCalled();
  });

  describe('when the browser refuses tracking (Do-Not-Track)', () => {
    beforeEach(() => Object.defineProperty(navigator, 'doNotTrack', { configurable: true, value: '1' }));
    afterEach(() => delete (navigator as { doNotTrack?: unknown }).doNotTrack);

    it('sends it alone, once per session, from page loads outside the sample', async () => {
      setSample('0.25');
      jest.spyOn(Math, 'random').mockReturnValue(0.9);
      const { startTelemetry, reportPageView } = await freshCapture();
      startTelemetry();
      reportPageView();
      hidePage();
      window.dispatchEvent(new Event('pagehide'));
      await expect(sentBatches()).resolves.toEqual([{ session: VISIT }]);
      expect(readSessionAttribution()?.counted).toBe(true);
      expect(createReporter).not.toHaveBeenCalled();

      // The session's next page load, outside the sample too: the visit is counted already.
      const next = await freshCapture();
      next.startTelemetry();
      next.reportPageView();
      hidePage();
      expect(beacons).toHaveLength(1);
    });

    it('sends it with the page views of a page load in the sample, which carry no counting for the dashboard', async () => {
      setSample('1');
      const { startTelemetry, reportPageView } = await freshCapture();
      startTelemetry();
      reportPageView();
      hidePage();
      await expect(sentBatches()).resolves.toEqual([{ page_views: [{ page: '/', releases: { shell: 'unknown' } }], session: VISIT }]);
    });
  });

  it('sends nothing for a session without attribution, or with telemetry off', async () => {
    setSample('0');
    const off = await freshCapture();
    off.startTelemetry();
    hidePage();
    sessionStorage.clear();
    setSample('0.25');
    jest.spyOn(Math, 'random').mockReturnValue(0.9);
    const none = await freshCapture();
    none.startTelemetry();
    hidePage();
    expect(beacons).toEqual([]);
  });
});
