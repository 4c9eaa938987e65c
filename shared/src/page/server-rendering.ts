import { BLOG_LISTING_PATH, blogListingPath, parseBlogListingSearch } from '../constants/blog';
import type { RemoteModuleId } from '../federation/contract';
import type { PageMeta } from './page-meta';

// How pages are rendered on the server. Each app's build also makes a server bundle of the pieces
// it renders (shared/webpack/server-bundle-config.js); it travels in the app's own
// release, and the API loads the current one to stitch the page, so a remote's release changes its
// markup with no shell build.

/** API responses a server render used, keyed by API path (`/blog/5`), handed to the browser too. */
export type ServerData = Record<string, ServerDataEntry>;
export interface ServerDataEntry {
  status: number;
  body: unknown;
}

/** A remote's server bundle. */
export interface RemoteServerBundle {
  /** API paths `renderSlot` needs for this module, or undefined when it does not render it on the server. */
  dataFor(module: string, props: object): string[] | undefined;
  /** Reads nothing but its arguments: the server keeps the markup by them and renders it once. */
  renderSlot(module: string, props: object, data: ServerData): SlotRender;
}

export interface SlotRender {
  html: string;
  /** The page's meta when this slot is the page's subject (a blog post). */
  meta?: PageMeta;
  /** 404 when what the slot shows does not exist. */
  status?: number;
}

/** A slot the shell's markup holds: which module with which props. */
export interface SlotRequest {
  id: RemoteModuleId;
  props: object;
  /** A lower section: in the server's markup too, but its code loads (and hydrates it) as it nears the viewport. */
  whenVisible?: boolean;
}

export interface ShellPageRender {
  html: string;
  /** Unset when a slot's remote gives the page its meta (a blog post). */
  meta?: PageMeta;
  status: number;
  /** The slots on this route, in page order (each once). */
  slots: SlotRequest[];
}

/** A slot's markup from its remote's server bundle, and the release that made it. */
export interface ServerSlot {
  html: string;
  release: string;
}

/** The shell's server bundle. */
export interface ShellServerBundle {
  /**
   * The page frame for `url` with each slot's server markup in place, wrapped exactly as the
   * browser wraps a loaded remote, so React hydrates it instead of drawing it again (a slot
   * without markup keeps its placeholder and renders in the browser).
   */
  renderPage(url: string, slots: Partial<Record<RemoteModuleId, ServerSlot>>): ShellPageRender;
}

/**
 * An element of a remote's server markup marked with this attribute (and `hidden`) is shown by the
 * shell when that remote's code cannot load and its server markup is left in the page: where that
 * markup says what works without its script (a form still posts itself).
 */
export const SHOWN_IF_REMOTE_FAILS_ATTRIBUTE = 'data-shown-if-remote-fails';

/** Ids of the JSON the server puts into the page. */
export const PAGE_DATA_IDS = {
  /** The remotes document (where each remote's current release is), so no request is needed for it. */
  remotes: 'agency-remotes',
  /** ServerData of the server render, so the remotes start from what the page already shows. */
  serverData: 'agency-server-data',
} as const;

/**
 * The part of an address (`/blog?utm_source=fb&category=Кейси`) a page's server render reads: its
 * path, and on the blog listing its category and page, in their one canonical form. Nothing else
 * in the query (campaign tags, click ids, a vacancy the form picks once it runs in the browser)
 * changes the server's markup, so the server renders and caches each page under this address:
 * a campaign's visitors, each with their own click id, share one render.
 */
export function pageRenderUrl(url: string): string {
  const queryStart = url.indexOf('?');
  const pathname = queryStart < 0 ? url : url.slice(0, queryStart);
  if (pathname !== BLOG_LISTING_PATH) return pathname;
  return blogListingPath(parseBlogListingSearch(queryStart < 0 ? '' : url.slice(queryStart)));
}
