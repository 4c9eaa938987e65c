import { createContext, useContext, useLayoutEffect } from 'react';
import type { PageMeta, RemoteModuleId, ServerSlot, SlotRequest } from '@agency/shared';

/**
 * What a server render of the shell learns while rendering: the slots on the route (with their
 * props) and the page's meta and status. Absent in the browser.
 */
export interface PageRenderCollector {
  /** Server markup for slots, from the remotes' server bundles. */
  serverSlots: Partial<Record<RemoteModuleId, ServerSlot>>;
  /** The slots on the route; those hydrated when the visitor nears them are marked so (their code is not preloaded). */
  slots: SlotRequest[];
  meta?: PageMeta;
  status: number;
}

export const PageRenderContext = createContext<PageRenderCollector | null>(null);

export function usePageRenderCollector(): PageRenderCollector | null {
  return useContext(PageRenderContext);
}

let serverTitleShown = false;

/**
 * Called before React adopts a page the server rendered. That page's title is already its final
 * one, a remote's refinement included, so the route leaves it on that first commit: setting the
 * route's own title would show, until the remote's code has loaded, a title the server never sent
 * (the made-up category's name on a listing that does not exist).
 */
export function keepServerRenderedTitle(): void {
  serverTitleShown = true;
}

/**
 * The page's title and meta: on the server they go into the <head> the server sends (with the
 * status, 404 for pages that do not exist); in the browser the title follows client navigation.
 * A remote in the page may refine the title (a post's, or «not found» for a listing that does not
 * exist) in its own effect. A layout effect runs before every passive effect of the same commit,
 * children's included, so the route's title is set first and the remote's stands.
 */
export function usePageMeta(meta: PageMeta, status = 200): void {
  const collector = usePageRenderCollector();
  if (collector) {
    collector.meta = meta;
    collector.status = status;
  }
  useLayoutEffect(() => {
    if (serverTitleShown) {
      serverTitleShown = false;
      return;
    }
    document.title = meta.title;
  }, [meta.title]);
}
