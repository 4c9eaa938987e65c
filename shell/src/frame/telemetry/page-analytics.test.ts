// The beacons are checked against the API's own schema: a test, never shipped to visitors.
// eslint-disable-next-line no-restricted-imports
import { Value } from '@sinclair/typebox/value';
// eslint-disable-next-line no-restricted-imports
import { TelemetryBatchSchema } from '@agency/shared/contracts';
import { PAGE_DATA_IDS, SITE_ANALYTICS_LIMITS, type PageAnalytics, type TelemetryBatch } from '@agency/shared';
import { putRemotesInPage, readBlob, setSample } from './telemetry-page.fixture';

/**
 * What the owner's dashboard receives of page views (page-analytics.ts): the beacons' bodies as the
 * API gets them, from a page load in release health's sample and outside it. The reporter is the
 * real one (web-vitals aside): a page in the sample loads it when it is first hidden.
 */

jest.mock('web-vitals', () => ({ onLCP: jest.fn(), onINP: jest.fn(), onCLS: jest.fn(), onFCP: jest.fn(), onTTFB: jest.fn() }));
jest.mock('@module-federation/enhanced/runtime', () => ({ registerRemotes: jest.fn() }));

type Capture = typeof import('./telemetry-capture');

/** The page's clock (performance.now), moved by the tests. */
let clock = 0;
let beacons: Blob[] = [];

/** A fresh copy of the telemetry modules (each keeps its state for the page's lifetime). */
async function freshCapture(): Promise<Capture> {
  jest.resetModules();
  return import('./telemetry-capture');
}

/** This page load is outside release health's sample (a draw of 0.9 against 0.25). */
function outsideSample(): void {
  setSample('0.25');
  jest.spyOn(Math, 'random').mockReturnValue(0.9);
}

function setVisibility(state: DocumentVisibilityState): void {
  Object.defineProperty(document, 'visibilityState', { configurable: true, value: state });
  document.dispatchEvent(new Event('visibilitychange'));
}

const hidePage = () => setVisibility('hidden');
const showPage = () => setVisibility('visible');

/** A client-side move to `path` (the router's), and the page view usePageViews reports for it. */
function moveTo(capture: Capture, path: string): void {
  window.history.pushState(null, '', path);
  capture.reportPageView();
}

/** How far the visitor has scrolled; form slots' boxes move with it. */
let scrolled = 0;

/** A remote's slot in the page, `top` pixels down the page and `height` tall (jsdom lays out nothing). */
function slot(module: string, { top = 0, height = 0 } = {}): HTMLElement {
  const element = document.createElement('div');
  element.setAttribute('data-remote-module', module);
  element.getBoundingClientRect = () => {
    const y = top - scrolled;
    return { top: y, bottom: y + height, height, left: 0, right: 1024, width: 1024, x: 0, y, toJSON: () => ({}) };
  };
  document.body.append(element);
  return element;
}

function typeIn(container: HTMLElement): void {
  const input = document.createElement('input');
  container.append(input);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/** The body of every beacon sent so far, in order, each checked against the API's schema. */
async function received(): Promise<TelemetryBatch[]> {
  const bodies = await Promise.all(beacons.map(async (blob) => JSON.parse(await readBlob(blob)) as TelemetryBatch));
  for (const body of bodies) {
    expect([...Value.Errors(TelemetryBatchSchema, body)].map((error) => `${error.path}: ${error.message}`)).toEqual([]);
  }
  return bodies;
}

/** Lets the reporter's loading (a timeout, then its import) run its course. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
}

/** A page view of `/` with no remotes, as a page load outside the sample sends it. */
const outsideView = (analytics: Partial<PageAnalytics> = {}) => ({
  page: '/',
  releases: { shell: 'shell-7' },
  sampled: false,
  analytics: { path: '/', device: 'desktop', engaged_ms: 0, ...analytics },
});

// Each copy of the modules listens on window and document: the listeners of each test are removed after it.
type Listening = [string, EventListenerOrEventListenerObject, boolean | AddEventListenerOptions | undefined];
const listeners: { target: EventTarget; listening: Listening }[] = [];

beforeEach(() => {
  clock = 0;
  scrolled = 0;
  beacons = [];
  jest.spyOn(performance, 'now').mockImplementation(() => clock);
  for (const target of [window, document] as EventTarget[]) {
    const original = target.addEventListener.bind(target);
    jest.spyOn(target, 'addEventListener').mockImplementation((type, listener, options) => {
      if (listener) listeners.push({ target, listening: [type, listener, options] });
      original(type, listener, options);
    });
  }
  // A scroll's look for forms waits for the next frame: here, at once.
  jest.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => {
    callback(clock);
    return 0;
  });
  Object.assign(navigator, {
    sendBeacon: jest.fn((_url: string, body: Blob) => {
      beacons.push(body);
      return true;
    }),
  });
  putRemotesInPage();
});

afterEach(() => {
  for (const { target, listening } of listeners.splice(0)) target.removeEventListener(...listening);
  // Back to what jsdom's prototypes say.
  delete (document as { visibilityState?: unknown }).visibilityState;
  delete (document as { prerendering?: unknown }).prerendering;
  delete (navigator as { sendBeacon?: unknown }).sendBeacon;
  delete (navigator as { doNotTrack?: unknown }).doNotTrack;
  delete (navigator as { globalPrivacyControl?: unknown }).globalPrivacyControl;
  delete (window.screen as { width?: unknown }).width;
  jest.restoreAllMocks();
  setSample(undefined);
  document.getElementById(PAGE_DATA_IDS.remotes)?.remove();
  document.body.replaceChildren();
  sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('outside release health’s sample', () => {
  beforeEach(outsideSample);

  it('sends each page view with `sampled: false` and its counting, as the page is hidden', async () => {
    const capture = await freshCapture();
    capture.startTelemetry();
    capture.reportPageView();
    clock = 2000;
    moveTo(capture, '/blog/12');
    clock = 5000;
    hidePage();
    window.dispatchEvent(new Event('pagehide'));
    await expect(received()).resolves.toEqual([
      {
        page_views: [
          outsideView({ engaged_ms: 2000 }),
          { page: '/blog/:postId', releases: { shell: 'shell-7' }, sampled: false, analytics: { path: '/blog/12', device: 'desktop', engaged_ms: 3000 } },
        ],
      },
    ]);
  });

  it('counts only the time the page was visible, and sends time read after a view was sent as its continuation, never a second view', async () => {
    const capture = await freshCapture();
    capture.startTelemetry();
    clock = 1000;
    capture.reportPageView();
    clock = 4000;
    hidePage();
    // Hidden for a minute: not read.
    clock = 64_000;
    showPage();
    clock = 66_500;
    hidePage();
    window.dispatchEvent(new Event('pagehide'));
    // Less than a second more is not worth a beacon of its own: it waits for more.
    clock = 70_000;
    showPage();
    clock = 70_400;
    hidePage();
    clock = 80_000;
    showPage();
    clock = 80_700;
    hidePage();
    await expect(received()).resolves.toEqual([
      { page_views: [outsideView({ engaged_ms: 3000 })] },
      { page_views: [outsideView({ engaged_ms: 2500, continued: true })] },
      { page_views: [outsideView({ engaged_ms: 1100, continued: true })] },
    ]);
  });

  it('does not count the time a page opened in the background waited to be seen', async () => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'hidden' });
    const capture = await freshCapture();
    capture.startTelemetry();
    capture.reportPageView();
    clock = 30_000;
    showPage();
    clock = 31_500;
    hidePage();
    await expect(received()).resolves.toEqual([{ page_views: [outsideView({ engaged_ms: 1500 })] }]);
  });

  it('sends the further time of a view sent before and left since, with the next page’s view', async () => {
    const capture = await freshCapture();
    capture.startTelemetry();
    capture.reportPageView();
    clock = 3000;
    hidePage();
    clock = 10_000;
    showPage();
    // Read four seconds more, then on to the next page.
    clock = 14_000;
    moveTo(capture, '/privacy');
    clock = 15_000;
    hidePage();
    await expect(received()).resolves.toEqual([
      { page_views: [outsideView({ engaged_ms: 3000 })] },
      {
        page_views: [
          { page: '/privacy', releases: { shell: 'shell-7' }, sampled: false, analytics: { path: '/privacy', device: 'desktop', engaged_ms: 1000 } },
          outsideView({ engaged_ms: 4000, continued: true }),
        ],
      },
    ]);
  });

  it('counts a page left open 30 minutes at most, and sends nothing further of it', async () => {
    const capture = await freshCapture();
    capture.startTelemetry();
    capture.reportPageView();
    clock = 45 * 60_000;
    hidePage();
    showPage();
    clock += 5000;
    hidePage();
    await expect(received()).resolves.toEqual([{ page_views: [outsideView({ engaged_ms: SITE_ANALYTICS_LIMITS.engagedMsMax })] }]);
  });

  it('cuts a path longer than the API takes, so the beacon is not refused', async () => {
    const capture = await freshCapture();
    capture.startTelemetry();
    const path = `/${'x'.repeat(SITE_ANALYTICS_LIMITS.pathMax + 100)}`;
    moveTo(capture, path);
    hidePage();
    const [batch] = await received();
    expect(batch!.page_views).toEqual([
      { page: '*', releases: { shell: 'shell-7' }, sampled: false, analytics: { path: path.slice(0, SITE_ANALYTICS_LIMITS.pathMax), device: 'desktop', engaged_ms: 0 } },
    ]);
  });

  it.each([
    [375, 'mobile'],
    [800, 'tablet'],
    [1280, 'desktop'],
  ])('tells the device by the screen’s width: %i px is %s', async (width, device) => {
    Object.defineProperty(window.screen, 'width', { configurable: true, value: width });
    const capture = await freshCapture();
    capture.startTelemetry();
    capture.reportPageView();
    hidePage();
    await expect(received()).resolves.toEqual([{ page_views: [outsideView({ device: device as PageAnalytics['device'] })] }]);
  });

  describe('a prerendered page', () => {
    beforeEach(() => {
      Object.defineProperty(document, 'prerendering', { configurable: true, value: true });
      Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'hidden' });
    });

    function activate(): void {
      Object.defineProperty(document, 'prerendering', { configurable: true, value: false });
      showPage();
      document.dispatchEvent(new Event('prerenderingchange'));
    }

    it('reports its page view once the visitor sees it, with the time since', async () => {
      const capture = await freshCapture();
      capture.startTelemetry();
      capture.reportPageView();
      capture.reportPageView();
      clock = 5000;
      window.dispatchEvent(new Event('pagehide'));
      expect(beacons).toEqual([]);

      clock = 7000;
      activate();
      clock = 9000;
      hidePage();
      await expect(received()).resolves.toEqual([{ page_views: [outsideView({ engaged_ms: 2000 })] }]);
    });

    it('reports none when it is never shown', async () => {
      const capture = await freshCapture();
      capture.startTelemetry();
      capture.reportPageView();
      window.dispatchEvent(new Event('pagehide'));
      expect(beacons).toEqual([]);
    });
  });

  describe('forms', () => {
    it.each([
      ['the contact form', 'forms/ContactForm', 'contact'],
      ['the job application form', 'forms/JobApplicationForm', 'applications'],
    ])('counts %s seen when its slot is on screen', async (_name, module, form) => {
      slot('home/HeroSection', { top: 0, height: 600 });
      slot(module, { top: 600, height: 400 });
      const capture = await freshCapture();
      capture.startTelemetry();
      capture.reportPageView();
      hidePage();
      const [batch] = await received();
      expect(batch!.page_views![0]!.analytics).toEqual({ path: '/', device: 'desktop', engaged_ms: 0, forms_seen: [form] });
    });

    it('counts a form seen while it was still loading (its pending slot on screen)', async () => {
      const pending = slot('forms/ContactForm', { top: 100, height: 300 });
      pending.removeAttribute('data-remote-module');
      pending.setAttribute('data-remote-pending', 'forms/ContactForm');
      const capture = await freshCapture();
      capture.startTelemetry();
      capture.reportPageView();
      hidePage();
      const [batch] = await received();
      expect(batch!.page_views![0]!.analytics!.forms_seen).toEqual(['contact']);
    });

    it('counts a form below the fold seen once it is scrolled to, even if scrolled past', async () => {
      slot('forms/JobApplicationForm', { top: 2000, height: 500 });
      const capture = await freshCapture();
      capture.startTelemetry();
      capture.reportPageView();
      clock = 1000;
      hidePage();
      showPage();
      scrolled = 1600;
      window.dispatchEvent(new Event('scroll'));
      scrolled = 3000;
      window.dispatchEvent(new Event('scroll'));
      hidePage();
      await expect(received()).resolves.toEqual([
        { page_views: [{ ...outsideView({ engaged_ms: 1000 }), releases: { shell: 'shell-7', forms: 'f1' } }] },
        // Seen since: sent at once, though hardly a second has passed.
        { page_views: [{ ...outsideView({ engaged_ms: 0, forms_seen: ['applications'], continued: true }), releases: { shell: 'shell-7', forms: 'f1' } }] },
      ]);
    });

    it('counts the application form started (and seen) when the visitor types in it', async () => {
      // Off screen as jsdom lays it out: only the typing tells.
      const form = slot('forms/JobApplicationForm');
      const capture = await freshCapture();
      capture.startTelemetry();
      capture.reportPageView();
      typeIn(form);
      hidePage();
      const [batch] = await received();
      expect(batch!.page_views![0]!.analytics).toEqual({ path: '/', device: 'desktop', engaged_ms: 0, forms_seen: ['applications'], forms_started: ['applications'] });
    });

    it('counts no form for typing elsewhere on the page', async () => {
      const search = slot('blog/BlogSearch');
      const capture = await freshCapture();
      capture.startTelemetry();
      capture.reportPageView();
      typeIn(search);
      typeIn(document.body);
      hidePage();
      const [batch] = await received();
      expect(batch!.page_views![0]!.analytics).toEqual({ path: '/', device: 'desktop', engaged_ms: 0 });
    });

    it('sends a form started after its view was sent in a continuation, without seeing it twice', async () => {
      const form = slot('forms/ContactForm', { top: 100, height: 400 });
      const capture = await freshCapture();
      capture.startTelemetry();
      capture.reportPageView();
      clock = 2000;
      hidePage();
      showPage();
      clock = 2300;
      typeIn(form);
      typeIn(form);
      hidePage();
      const releases = { shell: 'shell-7', forms: 'f1' };
      await expect(received()).resolves.toEqual([
        { page_views: [{ ...outsideView({ engaged_ms: 2000, forms_seen: ['contact'] }), releases }] },
        { page_views: [{ ...outsideView({ engaged_ms: 300, forms_started: ['contact'], continued: true }), releases }] },
      ]);
    });
  });
});

describe('in release health’s sample', () => {
  beforeEach(() => setSample('1'));

  it('sends page views with their counting and no `sampled`, and the reporter, loaded later, sends their further time', async () => {
    const capture = await freshCapture();
    capture.startTelemetry();
    capture.reportPageView();
    clock = 2000;
    hidePage();
    // Hidden is a moment to load the reporter.
    await settle();
    const { onLCP } = await import('web-vitals');
    expect(onLCP).toHaveBeenCalled();

    clock = 5000;
    showPage();
    clock = 8000;
    moveTo(capture, '/blog');
    clock = 9000;
    hidePage();
    await expect(received()).resolves.toEqual([
      { page_views: [{ page: '/', releases: { shell: 'shell-7' }, analytics: { path: '/', device: 'desktop', engaged_ms: 2000 } }] },
      {
        page_views: [
          { page: '/blog', releases: { shell: 'shell-7' }, analytics: { path: '/blog', device: 'desktop', engaged_ms: 1000 } },
          { page: '/', releases: { shell: 'shell-7' }, analytics: { path: '/', device: 'desktop', engaged_ms: 3000, continued: true } },
        ],
      },
    ]);
  });
});

describe.each([
  ['Do-Not-Track', 'doNotTrack', '1'],
  ['Global Privacy Control', 'globalPrivacyControl', true],
])('when the browser refuses tracking by %s', (_name, property, value) => {
  beforeEach(() => Object.defineProperty(navigator, property, { configurable: true, value }));

  it('sends page views in the sample without any counting for the dashboard', async () => {
    setSample('1');
    slot('forms/ContactForm', { top: 0, height: 400 });
    const capture = await freshCapture();
    capture.startTelemetry();
    capture.reportPageView();
    clock = 5000;
    hidePage();
    await settle();
    showPage();
    clock = 9000;
    hidePage();
    await expect(received()).resolves.toEqual([{ page_views: [{ page: '/', releases: { shell: 'shell-7', forms: 'f1' } }] }]);
  });

  it('sends no page views outside the sample', async () => {
    outsideSample();
    const capture = await freshCapture();
    capture.startTelemetry();
    capture.reportPageView();
    hidePage();
    window.dispatchEvent(new Event('pagehide'));
    expect(beacons).toEqual([]);
  });
});

it('counts the page views of a browser that allows tracking (Do-Not-Track "0", Global Privacy Control off)', async () => {
  Object.defineProperty(navigator, 'doNotTrack', { configurable: true, value: '0' });
  Object.defineProperty(navigator, 'globalPrivacyControl', { configurable: true, value: false });
  outsideSample();
  const capture = await freshCapture();
  capture.startTelemetry();
  capture.reportPageView();
  hidePage();
  await expect(received()).resolves.toEqual([{ page_views: [outsideView()] }]);
});
