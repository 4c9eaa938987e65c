import { singleFlight } from '../../platform/lib/single-flight';
import { cachedBody, type CachedBody } from '../../platform/http/cached-body';

export interface ContentCacheOptions {
  /** Reads the counter the database moves on every content change (see migration 0002). */
  readRevision: () => Promise<number>;
  /** How long a checked revision is trusted before the next request checks it again. */
  revalidateMs?: number;
  /** Most bodies kept; past it the cache starts again empty (keys are few: services, 50 list sizes, posts, their related posts, listing pages). */
  maxEntries?: number;
  /**
   * Called when the revision cannot be read (the database is down): the bodies already kept are
   * served meanwhile, as they were at the last revision read. True when the error means the
   * database is unavailable (else it is thrown).
   */
  onRevisionError?: (error: unknown) => boolean;
  now?: () => number;
}

export const CONTENT_REVALIDATE_MS = 1000;

/**
 * Published content (services, blog posts) changes only when it is published, yet every page
 * view reads it. This keeps each serialized answer in memory and drops them all once the
 * database's content revision moves, checked at most once per `revalidateMs`: a change made by
 * this process or any other (a content sync, another replica) is served within about a second.
 * A missing answer (`undefined`, e.g. an unknown post) is not kept. While the database is down,
 * what is kept is still served (stale if content changed meanwhile, which a down database cannot).
 */
export class ContentCache {
  private readonly readRevision: () => Promise<number>;
  private readonly revalidateMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly onRevisionError: (error: unknown) => boolean;
  private servedRevision: number | undefined;
  private checkedAt = Number.NEGATIVE_INFINITY;
  /** The last revision read failed: the next ones are tried in the background, not by a request. */
  private unreachable = false;
  private entries = new Map<string, Promise<CachedBody | undefined>>();

  constructor(options: ContentCacheOptions) {
    this.readRevision = options.readRevision;
    this.revalidateMs = options.revalidateMs ?? CONTENT_REVALIDATE_MS;
    this.maxEntries = options.maxEntries ?? 500;
    this.now = options.now ?? Date.now;
    this.onRevisionError = options.onRevisionError ?? (() => false);
  }

  /** The cached body under `key`, or what `load` serializes (kept unless undefined). */
  get(key: string, load: () => Promise<string>): Promise<CachedBody>;
  get(key: string, load: () => Promise<string | undefined>): Promise<CachedBody | undefined>;
  async get(key: string, load: () => Promise<string | undefined>): Promise<CachedBody | undefined> {
    await this.checkRevision();
    // A load started before an invalidation lands in the map that was dropped, never in the new one.
    const entries = this.entries;
    let entry = entries.get(key);
    if (!entry) {
      if (entries.size >= this.maxEntries) entries.clear();
      entry = load().then((json) => (json === undefined ? undefined : cachedBody(json)));
      entries.set(key, entry);
      entry.then(
        (body) => body === undefined && entries.get(key) === entry && entries.delete(key),
        () => entries.get(key) === entry && entries.delete(key),
      );
    }
    return entry;
  }

  /**
   * The content revision what this cache serves was read at (checked as `get` checks it), or
   * undefined while it has never been read: pages rendered from this content are kept under it.
   */
  async revision(): Promise<number | undefined> {
    await this.checkRevision();
    return this.servedRevision;
  }

  private async checkRevision(): Promise<void> {
    if (this.now() - this.checkedAt < this.revalidateMs) return;
    // While the database is down, a request does not wait for its connect timeout first.
    if (this.unreachable) void this.revalidate().catch(() => undefined);
    else await this.revalidate();
  }

  /** Reads the revision (one read at a time) and drops every body when it has moved. */
  private readonly revalidate = singleFlight(async () => {
    let revision: number;
    try {
      revision = await this.readRevision();
    } catch (error) {
      if (!this.onRevisionError(error)) throw error;
      // Kept bodies stay served; the next check is due in revalidateMs, as after a good read.
      this.unreachable = true;
      this.checkedAt = this.now();
      return;
    }
    this.unreachable = false;
    if (revision !== this.servedRevision) {
      this.servedRevision = revision;
      this.entries = new Map();
    }
    this.checkedAt = this.now();
  });
}
