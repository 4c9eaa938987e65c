import { waitFor } from '@testing-library/react';
import { TELEMETRY_SAMPLE_META } from '@agency/shared';
import type { TelemetrySink } from './telemetry-capture';

jest.mock('./telemetry-reporter', () => ({ createReporter: jest.fn() }));

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

function setSample(content: string | undefined): void {
  document.querySelector(`meta[name="${TELEMETRY_SAMPLE_META}"]`)?.remove();
  if (content === undefined) return;
  const meta = document.createElement('meta');
  meta.name = TELEMETRY_SAMPLE_META;
  meta.content = content;
  document.head.append(meta);
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

/** Lets the loading chain (load event, idle wait, the reporter's import) run its course. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
}

// Each copy of the module listens on window: the listeners of each test are removed after it.
const listeners: [string, EventListenerOrEventListenerObject][] = [];

beforeAll(() => {
  Object.defineProperty(document, 'readyState', { configurable: true, get: () => readyState });
});

afterAll(() => {
  delete (document as { readyState?: unknown }).readyState;
});

beforeEach(() => {
  readyState = 'loading';
  const original = window.addEventListener.bind(window);
  jest.spyOn(window, 'addEventListener').mockImplementation((type, listener, options) => {
    if (listener) listeners.push([type, listener]);
    original(type, listener, options);
  });
});

afterEach(() => {
  for (const [type, listener] of listeners.splice(0)) window.removeEventListener(type, listener);
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

  it('hands what happened before the reporter loaded to it once the page has loaded and is idle, in order', async () => {
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
    expect(sink.pageView.mock.calls).toEqual([[{ page: '/blog/:postId', remotes: ['blog', 'home'] }]]);
    // Page views and errors reach the reporter in the order they happened.
    expect(sink.pageView.mock.invocationCallOrder[0]).toBeLessThan(sink.error.mock.invocationCallOrder[2]!);
    expect(sink.pageView.mock.invocationCallOrder[0]).toBeGreaterThan(sink.error.mock.invocationCallOrder[1]!);
  });

  it('hands later errors and page views straight to the reporter', async () => {
    const { startTelemetry, reportPageView } = await freshCapture();
    readyState = 'complete';
    startTelemetry();
    await waitFor(() => expect(createReporter).toHaveBeenCalledTimes(1));

    const late = new Error('late');
    dispatchError(late);
    expect(sink.error).toHaveBeenCalledWith({ kind: 'uncaught', error: late, remote: undefined, page: '/' });
    window.history.pushState(null, '', '/nowhere');
    reportPageView();
    expect(sink.pageView).toHaveBeenCalledWith({ page: '*', remotes: [] });
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
    await settle();
    expect(createReporter).toHaveBeenCalledTimes(reports ? 1 : 0);
    expect(sink.pageView).toHaveBeenCalledTimes(reports ? 1 : 0);
  });
});
