/**
 * A value read again at most every `maxAgeMs`: settings admins change in the console (on any
 * process of the site) hold within seconds, at one read per interval. A failed read is not kept.
 */
export class CachedRead<T> {
  private cached: { at: number; value: Promise<T> } | undefined;

  constructor(
    private readonly read: () => Promise<T>,
    private readonly maxAgeMs = 5_000,
  ) {}

  get(now = Date.now()): Promise<T> {
    if (!this.cached || now - this.cached.at > this.maxAgeMs) {
      const value = this.read();
      this.cached = { at: now, value };
      value.catch(() => (this.cached = undefined));
    }
    return this.cached.value;
  }

  /** After a change on this process: the next use reads it. */
  forget(): void {
    this.cached = undefined;
  }
}
