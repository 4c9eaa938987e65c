// Keeps the page scrolled to a target while the content above it is still arriving. The remotes
// load after the shell (some only as they near the viewport), so a section's position moves for a
// while after a link was followed; scrolling once lands short. Holding stops as soon as the
// visitor scrolls, types or taps, or after HOLD_MAX_MS.

/** Longest time a target is held: a remote slower than this has failed, or the visitor is reading. */
export const HOLD_MAX_MS = 15_000;

/** The scroll position a target wants now, or null while it is not on the page yet. */
export type ScrollTarget = () => number | null;

const VISITOR_INPUT = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/** The space the sticky header covers: the page's `scroll-padding-top`, which native jumps use too. */
function scrollPadding(): number {
  return parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
}

/**
 * The position that puts the section's heading (or the section itself, until its remote has
 * drawn one) just under the sticky header. `holder` is the section an anchor inside a remote
 * lives in, aimed at until the anchor appears.
 */
export function sectionTarget(id: string, holder?: string): ScrollTarget {
  return () => {
    // An anchor inside a remote that loads only near the viewport does not exist yet on a fresh
    // visit: its section is the way there, and the slot loads on arrival.
    const section = document.getElementById(id) ?? (holder ? document.getElementById(holder) : null);
    if (!section) return null;
    const heading = section.matches('h1, h2') ? section : (section.querySelector('h1, h2') ?? section);
    return Math.max(0, heading.getBoundingClientRect().top + window.scrollY - scrollPadding());
  };
}

/**
 * Where the visitor is, as the section at the top of the screen and the distance scrolled into
 * it: sections above it that were still loading (or load now at other heights) do not move what
 * the visitor sees when it is restored. Pages without sections keep the plain offset.
 */
export interface ScrollPosition {
  top: number;
  section?: { id: string; offset: number };
}

function sectionsWithIds(): HTMLElement[] {
  return Array.from(document.querySelectorAll<HTMLElement>('main section[id]'));
}

export function currentPosition(): ScrollPosition {
  const top = Math.round(window.scrollY);
  const line = scrollPadding();
  const section = sectionsWithIds()
    .filter((element) => element.getBoundingClientRect().top <= line)
    .pop();
  if (!section) return { top };
  return { top, section: { id: section.id, offset: Math.round(line - section.getBoundingClientRect().top) } };
}

/** A remembered position, reachable once the page has drawn enough of itself again. */
export function positionTarget(position: ScrollPosition): ScrollTarget {
  return () => {
    const section = position.section && document.getElementById(position.section.id);
    if (!section || !position.section) return position.top;
    return Math.max(0, section.getBoundingClientRect().top + window.scrollY - scrollPadding() + position.section.offset);
  };
}

/** Scrolls to `target` now and after every change of the page until the hold ends; returns the stop. */
export function holdScroll(target: ScrollTarget): () => void {
  let frame = 0;
  const apply = () => {
    frame = 0;
    const top = target();
    if (top !== null && Math.abs(window.scrollY - top) >= 1) window.scrollTo({ top, left: 0, behavior: 'instant' });
  };
  const schedule = () => {
    if (!frame) frame = requestAnimationFrame(apply);
  };

  const resizes = new ResizeObserver(schedule);
  resizes.observe(document.body);
  // A target inside a remote appears without changing the page's height when it replaces a
  // placeholder of the same size; images inside it resize it later.
  const mutations = new MutationObserver(schedule);
  mutations.observe(document.body, { childList: true, subtree: true });
  const timer = window.setTimeout(stop, HOLD_MAX_MS);
  for (const type of VISITOR_INPUT) window.addEventListener(type, stop, { passive: true, capture: true });
  apply();

  function stop() {
    resizes.disconnect();
    mutations.disconnect();
    window.clearTimeout(timer);
    if (frame) cancelAnimationFrame(frame);
    for (const type of VISITOR_INPUT) window.removeEventListener(type, stop, { capture: true });
  }
  return stop;
}
