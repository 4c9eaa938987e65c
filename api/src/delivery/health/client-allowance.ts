/**
 * Keys' entries of one time window: a new window starts every key afresh, so the map holds only
 * the keys of one window.
 */
class WindowedMap<T> {
  private entries = new Map<string, T>();
  private window = -1;

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** The entries of the window now. */
  current(): Map<string, T> {
    const window = Math.floor(this.now() / this.windowMs);
    if (window !== this.window) {
      this.window = window;
      this.entries = new Map();
    }
    return this.entries;
  }
}

/**
 * What one client may add to telemetry, whatever it sends: a count per key (a client's app
 * release, say) per time window, kept in this process's memory. Each API process counts apart,
 * so with N processes a client gets at most N times as much in.
 */
export class ClientAllowance {
  private readonly used: WindowedMap<number>;

  constructor(
    private readonly limit: number,
    windowMs: number,
    now: () => number = Date.now,
  ) {
    this.used = new WindowedMap(windowMs, now);
  }

  /** How much of `amount` `key` may still add in this window; that much is used up. */
  take(key: string, amount = 1): number {
    const used = this.used.current();
    const already = used.get(key) ?? 0;
    const granted = Math.max(0, Math.min(amount, this.limit - already));
    if (granted > 0) used.set(key, already + granted);
    return granted;
  }
}

/**
 * Distinct values (a client's browser sessions) counted per key and time window, at most `limit`:
 * a value already counted in the window counts again freely.
 */
export class DistinctAllowance {
  private readonly seen: WindowedMap<Set<string>>;

  constructor(
    private readonly limit: number,
    windowMs: number,
    now: () => number = Date.now,
  ) {
    this.seen = new WindowedMap(windowMs, now);
  }

  /** Whether `value` counts for `key`: seen in this window already, or room for one more. */
  take(key: string, value: string): boolean {
    const seen = this.seen.current();
    let values = seen.get(key);
    if (!values) seen.set(key, (values = new Set()));
    if (values.has(value)) return true;
    if (values.size >= this.limit) return false;
    values.add(value);
    return true;
  }
}
