export interface UsageLimits {
  /** What every entry costs together, in bytes (as `costOf` counts them). 0 keeps none. */
  maxBytes: number;
  maxEntries: number;
}

/** Values kept in the order they were last used; past either bound the least recently used go. */
export class LeastRecentlyUsed<T> {
  private readonly entries = new Map<string, T>();
  private bytes = 0;

  constructor(
    private readonly limits: UsageLimits,
    private readonly costOf: (key: string, value: T) => number,
  ) {}

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /** Up to `count` keys, the most recently used first. */
  recent(count: number): string[] {
    return [...this.entries.keys()].slice(-count).reverse();
  }

  /** The value kept under `key`, leaving the order of use as it is. */
  peek(key: string): T | undefined {
    return this.entries.get(key);
  }

  get(key: string): T | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: T): void {
    const cost = this.costOf(key, value);
    if (cost > this.limits.maxBytes || this.limits.maxEntries < 1) return;
    this.delete(key);
    this.entries.set(key, value);
    this.bytes += cost;
    for (const [oldest, evicted] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && this.bytes <= this.limits.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= this.costOf(oldest, evicted);
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  private delete(key: string): void {
    const value = this.entries.get(key);
    if (value === undefined) return;
    this.entries.delete(key);
    this.bytes -= this.costOf(key, value);
  }
}
