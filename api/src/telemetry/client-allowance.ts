/**
 * What one client may add to telemetry, whatever it sends: a count per key (a client's app
 * release, say) per time window, kept in this process's memory. Each API process counts apart,
 * so with N processes a client gets at most N times as much in.
 */
export class ClientAllowance {
  private used = new Map<string, number>();
  private window = -1;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** How much of `amount` `key` may still add in this window; that much is used up. */
  take(key: string, amount = 1): number {
    const window = Math.floor(this.now() / this.windowMs);
    if (window !== this.window) {
      // A new window starts every key afresh, so the map holds only the keys of one window.
      this.window = window;
      this.used = new Map();
    }
    const used = this.used.get(key) ?? 0;
    const granted = Math.max(0, Math.min(amount, this.limit - used));
    if (granted > 0) this.used.set(key, used + granted);
    return granted;
  }
}

/**
 * Distinct values (a client's browser sessions) counted per key and time window, at most `limit`:
 * a value already counted in the window counts again freely.
 */
export class DistinctAllowance {
  private seen = new Map<string, Set<string>>();
  private window = -1;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether `value` counts for `key`: seen in this window already, or room for one more. */
  take(key: string, value: string): boolean {
    const window = Math.floor(this.now() / this.windowMs);
    if (window !== this.window) {
      this.window = window;
      this.seen = new Map();
    }
    let values = this.seen.get(key);
    if (!values) this.seen.set(key, (values = new Set()));
    if (values.has(value)) return true;
    if (values.size >= this.limit) return false;
    values.add(value);
    return true;
  }
}
