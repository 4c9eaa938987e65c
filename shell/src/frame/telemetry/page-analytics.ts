import { ANALYTICS_FORMS, deviceClassOf, SITE_ANALYTICS_LIMITS, type LeadKind, type PageAnalytics } from '@agency/shared';

/**
 * What the owner's dashboard counts of each page view, beside what release health does: the
 * page's path, the screen's device class, how long the page was visible, and the forms on it the
 * visitor saw (their slot on screen) and started (typed in). Nothing is stored on the device; a
 * browser that asks not to be tracked (Do-Not-Track, Global Privacy Control) sends none of it.
 */

/** A page view's counting, from its start until the next one. */
export interface ViewAnalytics {
  path: string;
  /** The route pattern and the remotes on the page, as release health reports the view. */
  page: string;
  remotes: readonly string[];
  engagedMs: number;
  /** Engaged time already sent. */
  sentMs: number;
  seen: Set<LeadKind>;
  started: Set<LeadKind>;
  /** Forms already reported seen and started. */
  sentSeen: Set<LeadKind>;
  sentStarted: Set<LeadKind>;
  /** Whether the view itself has been sent (later sends report only its further time). */
  sent: boolean;
}

/** Time worth a further report of a view already sent. */
const CONTINUATION_MIN_MS = 1000;
/** Views left (the visitor moved on) with more to report than was sent, kept at most until the next report. */
const MAX_LEFT = 50;

const FORM_SLOTS = Object.keys(ANALYTICS_FORMS)
  .map((id) => `[data-remote-module="${id}"],[data-remote-pending="${id}"]`)
  .join(',');

let current: ViewAnalytics | undefined;
/** Views sent before and left since, with time or forms still to report. */
let left: ViewAnalytics[] = [];
let visibleSince: number | undefined;
let watching = false;

/** Whether the browser asks not to be tracked. */
export function trackingRefused(): boolean {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
  return nav.doNotTrack === '1' || nav.globalPrivacyControl === true;
}

/** Adds the time since the last look to the current view, while the page is visible. */
function accrue(): void {
  const now = performance.now();
  if (current && visibleSince !== undefined) current.engagedMs += now - visibleSince;
  visibleSince = document.visibilityState === 'visible' ? now : undefined;
}

function formOf(element: Element | null): LeadKind | undefined {
  const slot = element?.closest('[data-remote-module],[data-remote-pending]');
  const id = slot?.getAttribute('data-remote-module') ?? slot?.getAttribute('data-remote-pending');
  return id ? ANALYTICS_FORMS[id] : undefined;
}

/** Marks the forms whose slot is on screen now as seen. */
function lookForForms(): void {
  if (!current) return;
  for (const slot of document.querySelectorAll(FORM_SLOTS)) {
    const form = formOf(slot);
    const box = slot.getBoundingClientRect();
    if (form && box.bottom > 0 && box.top < window.innerHeight && box.height > 0) current.seen.add(form);
  }
}

function watch(): void {
  if (watching) return;
  watching = true;
  visibleSince = document.visibilityState === 'visible' ? performance.now() : undefined;
  document.addEventListener('visibilitychange', accrue);
  let scheduled = false;
  window.addEventListener(
    'scroll',
    () => {
      if (scheduled) return;
      scheduled = true;
      requestAnimationFrame(() => {
        scheduled = false;
        lookForForms();
      });
    },
    { passive: true },
  );
  document.addEventListener(
    'input',
    (event) => {
      const form = formOf(event.target instanceof Element ? event.target : null);
      if (form && current) {
        current.seen.add(form);
        current.started.add(form);
      }
    },
    { capture: true },
  );
}

/** Engaged time of a view counted at most (SITE_ANALYTICS_LIMITS.engagedMsMax). */
const countable = (ms: number) => Math.min(ms, SITE_ANALYTICS_LIMITS.engagedMsMax);

/** Whether a view sent before has more to report: time worth it, a form seen or started since. */
function hasMore(view: ViewAnalytics): boolean {
  if (!view.sent) return false;
  const fresh = (forms: Set<LeadKind>, sent: Set<LeadKind>) => [...forms].some((form) => !sent.has(form));
  return countable(view.engagedMs) - countable(view.sentMs) >= CONTINUATION_MIN_MS || fresh(view.seen, view.sentSeen) || fresh(view.started, view.sentStarted);
}

/** A page view begins at `path`: the previous one's time stops. Undefined when tracking is refused. */
export function startViewAnalytics(path: string, page: string, remotes: readonly string[]): ViewAnalytics | undefined {
  if (trackingRefused()) return undefined;
  watch();
  accrue();
  // Read again after it was sent (the page shown anew, a form started), then left: that is still to report.
  if (current && hasMore(current) && left.length < MAX_LEFT) left.push(current);
  current = { path: path.slice(0, SITE_ANALYTICS_LIMITS.pathMax), page, remotes, engagedMs: 0, sentMs: 0, seen: new Set(), started: new Set(), sentSeen: new Set(), sentStarted: new Set(), sent: false };
  lookForForms();
  return current;
}

/** What a view's report says, once: its time so far and the forms; marks them sent. */
export function analyticsOf(view: ViewAnalytics): PageAnalytics {
  accrue();
  if (view === current) lookForForms();
  const continued = view.sent;
  const engaged = Math.max(0, Math.min(Math.round(view.engagedMs - view.sentMs), SITE_ANALYTICS_LIMITS.engagedMsMax - Math.round(view.sentMs)));
  view.sentMs = view.engagedMs;
  const unsent = (forms: Set<LeadKind>, sent: Set<LeadKind>) => {
    const fresh = [...forms].filter((form) => !sent.has(form));
    for (const form of fresh) sent.add(form);
    return fresh;
  };
  const seen = unsent(view.seen, view.sentSeen);
  const started = unsent(view.started, view.sentStarted);
  view.sent = true;
  return {
    path: view.path,
    device: deviceClassOf(window.screen?.width || window.innerWidth),
    engaged_ms: engaged,
    ...(seen.length > 0 ? { forms_seen: seen } : {}),
    ...(started.length > 0 ? { forms_started: started } : {}),
    ...(continued ? { continued: true as const } : {}),
  };
}

/**
 * The views sent before that have more to report: those the visitor has left since, and the one
 * on screen.
 */
export function viewsToContinue(): ViewAnalytics[] {
  const views = left.filter(hasMore);
  left = [];
  if (current?.sent) {
    accrue();
    lookForForms();
    if (hasMore(current)) views.push(current);
  }
  return views;
}
