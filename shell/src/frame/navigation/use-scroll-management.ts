import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from '@agency/shared/router';
import { ANCHOR_SECTIONS } from './anchor-sections';
import { currentPosition, holdScroll, positionTarget, sectionTarget, type ScrollPosition } from './hold-scroll';

const STORAGE_KEY = 'agency:scroll-positions';

/** Each history entry's last scroll position, kept for the tab's life (a reload keeps it too). */
function readPositions(): Map<string, ScrollPosition> {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}');
    return new Map(stored && typeof stored === 'object' ? Object.entries(stored as Record<string, ScrollPosition>) : []);
  } catch {
    return new Map();
  }
}

function writePositions(positions: Map<string, ScrollPosition>): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(Object.fromEntries(positions)));
  } catch {
    // Storage full or blocked: Back then starts at the top, nothing worse.
  }
}

/**
 * Where each navigation leaves the page: a section link lands on its section's heading however
 * late the content above it arrives; Back and Forward return to where the visitor was; any other
 * new page starts at its top.
 */
export function useScrollManagement(): void {
  const location = useLocation();
  const navigationType = useNavigationType();
  // The router keys the entries it creates. The visit's first entry, and those a plain
  // <a href="#…"> adds, all have the key "default": their address tells them apart.
  const entryKey = location.key === 'default' ? `default:${location.pathname}${location.search}${location.hash}` : location.key;
  const currentEntry = useRef(entryKey);
  const previousPage = useRef<string | null>(null);
  // Scrolling updates this map, a frame at most; storage is written only when the visitor leaves
  // an entry or the page, not on every frame.
  const positions = useRef<Map<string, ScrollPosition> | null>(null);
  positions.current ??= typeof window === 'undefined' ? new Map() : readPositions();

  useEffect(() => {
    // The browser's own restoration runs before the remotes have drawn, and lands wrong.
    window.history.scrollRestoration = 'manual';
    let frame = 0;
    const record = () => {
      frame = 0;
      positions.current!.set(currentEntry.current, currentPosition());
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(record);
    };
    // A reload or a visit elsewhere in this tab comes back to the stored positions.
    const store = () => writePositions(positions.current!);
    window.addEventListener('scroll', onScroll, { passive: true });
    // The server's page can be scrolled before this script runs, and the visitor may not scroll again.
    if (window.scrollX !== 0 || window.scrollY !== 0) onScroll();
    window.addEventListener('pagehide', store);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('pagehide', store);
      if (frame) cancelAnimationFrame(frame);
    };
  }, []);

  // Before the browser paints the new page, so scrolling it is never attributed to the old entry.
  useLayoutEffect(() => {
    if (currentEntry.current !== entryKey) writePositions(positions.current!);
    currentEntry.current = entryKey;
  }, [entryKey]);

  useEffect(() => {
    const page = `${location.pathname}${location.search}`;
    const isFirstRender = previousPage.current === null;
    // A plain <a href="#…"> on the same page makes an entry the router did not create (key
    // "default", like the visit's first entry): it is a jump to a section, not a return.
    const plainHashLink = location.key === 'default' && previousPage.current === page && location.hash.length > 1;
    previousPage.current = page;
    const saved = positions.current!.get(entryKey);
    if (navigationType === 'POP' && saved !== undefined && !plainHashLink) return holdScroll(positionTarget(saved));
    if (location.hash.length > 1) {
      const id = decodeURIComponent(location.hash.slice(1));
      return holdScroll(sectionTarget(id, ANCHOR_SECTIONS[id]));
    }
    // The first page of a visit is already at its top.
    if (!isFirstRender) window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
    return undefined;
    // A new history entry is a new navigation, even to the same address.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [entryKey]);
}
