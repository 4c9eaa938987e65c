import { afterFirstPaint } from './after-first-paint';

/** Whether `promise` has settled once the microtasks queued so far have run. */
async function isSettled(promise: Promise<void>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
  return settled;
}

/** A browser's paint timing: the test reports the first contentful paint when it likes. */
function installPaintTiming() {
  let report: ((names: string[]) => void) | undefined;
  class FakePerformanceObserver {
    static supportedEntryTypes = ['paint'];
    constructor(private readonly callback: (list: { getEntriesByName(name: string): unknown[] }) => void) {}
    observe() {
      report = (names) => this.callback({ getEntriesByName: (name) => names.filter((entry) => entry === name) });
    }
    disconnect() {
      report = undefined;
    }
  }
  Object.defineProperty(globalThis, 'PerformanceObserver', { value: FakePerformanceObserver, configurable: true });
  return { paint: (...names: string[]) => report?.(names) };
}

function setVisibility(state: DocumentVisibilityState) {
  Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
}

describe('afterFirstPaint', () => {
  const realObserver = Object.getOwnPropertyDescriptor(globalThis, 'PerformanceObserver');

  beforeEach(() => {
    jest.useFakeTimers();
    setVisibility('visible');
  });

  afterEach(() => {
    jest.useRealTimers();
    if (realObserver) Object.defineProperty(globalThis, 'PerformanceObserver', realObserver);
    else delete (globalThis as { PerformanceObserver?: unknown }).PerformanceObserver;
  });

  it('waits for the first contentful paint the browser reports, not for an earlier paint', async () => {
    const timing = installPaintTiming();
    const painted = afterFirstPaint();
    timing.paint('first-paint');
    await expect(isSettled(painted)).resolves.toBe(false);
    timing.paint('first-contentful-paint');
    await expect(isSettled(painted)).resolves.toBe(true);
  });

  it('does not wait in a hidden tab, which paints nothing', async () => {
    installPaintTiming();
    setVisibility('hidden');
    await expect(isSettled(afterFirstPaint())).resolves.toBe(true);
  });

  it('gives up waiting after a second when no paint is reported', async () => {
    installPaintTiming();
    const painted = afterFirstPaint();
    jest.advanceTimersByTime(999);
    await expect(isSettled(painted)).resolves.toBe(false);
    jest.advanceTimersByTime(1);
    await expect(isSettled(painted)).resolves.toBe(true);
  });

  it('without paint timing, waits two animation frames', async () => {
    delete (globalThis as { PerformanceObserver?: unknown }).PerformanceObserver;
    const painted = afterFirstPaint();
    await expect(isSettled(painted)).resolves.toBe(false);
    jest.advanceTimersByTime(16);
    await expect(isSettled(painted)).resolves.toBe(false);
    jest.advanceTimersByTime(17);
    await expect(isSettled(painted)).resolves.toBe(true);
  });
});
