import { formsInMarkup, type FormName } from '@agency/shared';
import { precompressedBody, type PrecompressedBody } from '../../platform/http/cached-body';
import { openEndedBody, type OpenEndedBody } from '../../platform/http/open-ended-body';
import { LeastRecentlyUsed, type UsageLimits } from './least-recently-used';

/**
 * A rendered page as the server keeps and sends it: the same for everyone, or, for a page with
 * forms, the same up to its end, where each response adds the forms' own tokens (form-tokens.ts
 * in the shared package) before `tail`.
 */
export type CachedPage = {
  status: number;
  /** The apps on the page (see PageRender). */
  apps: readonly string[];
  /** False for a page rendered without some of its parts (see RenderedPage): sent, never kept. */
  cacheable: boolean;
} & ({ body: PrecompressedBody; forms?: undefined } | { body: OpenEndedBody; forms: { names: FormName[]; tail: string } });

/** A page's markup as kept: a page with forms is cut before its `</body>`, where their tokens go. */
async function keptBody(html: string): Promise<Pick<CachedPage, 'body' | 'forms'>> {
  const names = formsInMarkup(html);
  const cut = html.lastIndexOf('</body>');
  if (names.length === 0 || cut < 0) return { body: precompressedBody(html) };
  return { body: await openEndedBody(html.slice(0, cut)), forms: { names, tail: html.slice(cut) } };
}

/** What a render gives the cache. */
export interface PageRender {
  status: number;
  html: string;
  /** The apps on the page: the shell and each remote one of its slots names (every app when unknown). */
  apps: readonly string[];
  /** Whether every part rendered as it should: only such a page is kept. */
  complete: boolean;
}

/** Bytes of every page kept (its text, its brotli and gzip copies and its address; 0 keeps none) and pages. */
export type PageCacheLimits = UsageLimits;

export const PAGE_CACHE_MAX_ENTRIES = 2000;
/**
 * The share of both bounds that pages answering other than 200 (a 404 for an unknown address)
 * may take: any address can be asked for, so these are the ones a flood of made-up addresses
 * would grow, and they must never push the site's real pages out.
 */
export const OTHER_STATUS_SHARE = 1 / 8;
/**
 * How many of the pages asked for last are rendered again as soon as a release or content change
 * starts a new generation, one after the other, rather than each by its next visitor: a render
 * that runs seldom runs slower, and nginx's or a CDN's next revalidation then finds them ready.
 */
export const PAGES_RENDERED_AHEAD = 20;
/**
 * Kept pages waiting to be compressed again at a better quality, one at a time (one core's worth
 * of zlib's thread pool at most); past this many, a newly kept page keeps its first copy.
 */
export const PAGES_WAITING_RECOMPRESSION = 100;

function costOf(key: string, page: CachedPage): number {
  return Buffer.byteLength(key) + page.body.byteLength;
}

/**
 * Rendered pages in memory, under the generation of everything a page is made from (the releases,
 * builds and content revision it was rendered with: see page-generation.ts) and the address its
 * render reads. A new generation drops every page, so the next request renders afresh. Pages are
 * compressed when rendered, and a kept one again, better, in the background; concurrent requests
 * for a page that is not kept share one render.
 */
export class PageCache {
  private generation: string | undefined;
  private readonly found: LeastRecentlyUsed<CachedPage>;
  private readonly other: LeastRecentlyUsed<CachedPage>;
  private rendering = new Map<string, Promise<CachedPage | undefined>>();
  private readonly recompressing: { url: string; page: CachedPage }[] = [];

  constructor(private readonly limits: PageCacheLimits) {
    const share = (value: number) => Math.floor(value * OTHER_STATUS_SHARE);
    this.found = new LeastRecentlyUsed({ maxBytes: limits.maxBytes - share(limits.maxBytes), maxEntries: limits.maxEntries - share(limits.maxEntries) }, costOf);
    this.other = new LeastRecentlyUsed({ maxBytes: share(limits.maxBytes), maxEntries: share(limits.maxEntries) }, costOf);
  }

  /** What is kept now, for tests and diagnostics. */
  get size(): { entries: number; bytes: number } {
    const found = this.found.size;
    const other = this.other.size;
    return { entries: found.entries + other.entries, bytes: found.bytes + other.bytes };
  }

  /**
   * The page at `url` in `generation`: kept, being rendered, or rendered now by `render`
   * (undefined when there is nothing to render a page with: no shell build). A new generation
   * also renders the pages used last again, once this one is rendered (PAGES_RENDERED_AHEAD).
   */
  get(generation: string, url: string, render: (url: string) => Promise<PageRender | undefined>): Promise<CachedPage | undefined> {
    let ahead: string[] = [];
    if (generation !== this.generation) {
      ahead = this.generation === undefined ? [] : this.found.recent(PAGES_RENDERED_AHEAD).filter((used) => used !== url);
      this.generation = generation;
      this.found.clear();
      this.other.clear();
      // Renders of the generation before finish for the requests that wait on them, apart.
      this.rendering = new Map();
    }
    const kept = this.found.get(url) ?? this.other.get(url);
    if (kept) return Promise.resolve(kept);
    const rendering = this.rendering;
    const pending = rendering.get(url);
    if (pending) return pending;
    const page = render(url)
      .then(async (rendered): Promise<CachedPage | undefined> => {
        if (!rendered) return undefined;
        const { status, html, complete, apps } = rendered;
        const cached = { status, ...(await keptBody(html)), cacheable: complete, apps } as CachedPage;
        if (complete && this.generation === generation) {
          (status === 200 ? this.found : this.other).set(url, cached);
          this.recompressLater(url, cached);
        }
        return cached;
      })
      .finally(() => {
        if (rendering.get(url) === page) rendering.delete(url);
      });
    rendering.set(url, page);
    if (ahead.length > 0) void page.catch(() => undefined).then(() => this.renderAhead(generation, ahead, render));
    return page;
  }

  /** Queues a kept page's better compression; the queue runs while it has pages still kept. */
  private recompressLater(url: string, page: CachedPage): void {
    if (this.recompressing.length >= PAGES_WAITING_RECOMPRESSION) return;
    page.body.awaitBetter();
    this.recompressing.push({ url, page });
    if (this.recompressing.length === 1) void this.recompressQueued();
  }

  private async recompressQueued(): Promise<void> {
    while (this.recompressing.length > 0) {
      const { url, page } = this.recompressing[0]!;
      // A page dropped meanwhile (a new generation, or pushed out) is sent no more.
      if (this.found.peek(url) === page || this.other.peek(url) === page) await page.body.recompress().catch(() => undefined);
      else page.body.keepAsIs();
      this.recompressing.shift();
    }
  }

  private async renderAhead(generation: string, urls: string[], render: (url: string) => Promise<PageRender | undefined>): Promise<void> {
    for (const url of urls) {
      if (this.generation !== generation) return;
      await this.get(generation, url, render).catch(() => undefined);
    }
  }
}
