import { createHash } from 'node:crypto';
import type { ServerData, SlotRender } from '@agency/shared';
import { LeastRecentlyUsed, type UsageLimits } from './least-recently-used';
import { PAGE_CACHE_MAX_ENTRIES } from './page-cache';

/** The share of the pages' memory (PAGE_CACHE_MAX_MB) that slots' markup takes; 0 keeps none. */
export const SLOT_MARKUP_SHARE = 1 / 8;
/** Twice the pages the page cache keeps: a post has one or two slots, the home page ten. */
export const SLOT_MARKUP_MAX_ENTRIES = 2 * PAGE_CACHE_MAX_ENTRIES;

interface KeptMarkup {
  /** The server bundle that rendered it: a dist folder rebuilt in place loads as another. */
  bundle: object;
  markup: SlotRender;
}

/**
 * Markup the remotes' server bundles rendered, by what each render read: the bundle, the module,
 * its props and its data (a render reads nothing else: see RemoteServerBundle). After a change
 * that starts a new page generation (a new post), a page is rendered again from the slots it kept
 * and only the ones whose data changed (the home page's blog teaser) are rendered anew.
 */
export class SlotMarkupMemo {
  private readonly kept: LeastRecentlyUsed<KeptMarkup>;

  constructor(limits: UsageLimits) {
    this.kept = new LeastRecentlyUsed(limits, (key, { markup }) => Buffer.byteLength(key) + Buffer.byteLength(JSON.stringify(markup)));
  }

  /** What is kept now, for tests and diagnostics. */
  get size(): { entries: number; bytes: number } {
    return this.kept.size;
  }

  render(bundle: object, buildDir: string, module: string, props: object, data: ServerData, render: () => SlotRender): SlotRender {
    const inputs = createHash('sha1').update(JSON.stringify([props, data])).digest('base64url');
    const key = `${buildDir}\n${module}\n${inputs}`;
    const kept = this.kept.get(key);
    if (kept?.bundle === bundle) return kept.markup;
    const markup = render();
    this.kept.set(key, { bundle, markup });
    return markup;
  }
}
