import type { AppName } from './apps';
import { loadAppReleases, type AppReleases, type ReleaseInfo } from './store';

/** How old a read of state.json may be before the server reads it again. */
export const REFRESH_MS = 1000;

const NONE: AppReleases = {
  releases: [],
  history: [],
  current: undefined,
  previous: undefined,
  candidate: undefined,
  events: [],
  state: { history: [], events: [] },
};

interface Entry {
  value: AppReleases;
  readAt: number;
  pending?: Promise<AppReleases>;
}

/**
 * The server's view of the published releases. Reads are cached for about a second, so a release
 * made current by the release command is served within ~1 s without a restart, while a busy server
 * reads state.json at most once a second per app. Release folders never change, so their
 * metadata is read once.
 */
export class ReleaseReader {
  private readonly entries = new Map<AppName, Entry>();
  private readonly known = new Map<AppName, Map<string, ReleaseInfo>>();

  constructor(
    readonly releasesDir: string,
    private readonly onError: (error: unknown, app: AppName) => void = () => {},
    private readonly clock: () => number = Date.now,
  ) {}

  async get(app: AppName): Promise<AppReleases> {
    const entry = this.entries.get(app);
    if (entry && this.clock() - entry.readAt < REFRESH_MS) return entry.value;
    // Concurrent requests share one read.
    if (entry?.pending) return entry.pending;
    const pending = this.read(app, entry);
    this.entries.set(app, { value: entry?.value ?? NONE, readAt: entry?.readAt ?? 0, pending });
    return pending;
  }

  private async read(app: AppName, previous: Entry | undefined): Promise<AppReleases> {
    let known = this.known.get(app);
    if (!known) this.known.set(app, (known = new Map()));
    let value: AppReleases;
    try {
      value = await loadAppReleases(this.releasesDir, app, known);
      // Forget pruned releases.
      for (const id of known.keys()) if (!value.releases.some((release) => release.id === id)) known.delete(id);
    } catch (error) {
      // An unreadable state keeps what was served before rather than failing requests.
      this.onError(error, app);
      value = previous?.value ?? NONE;
    }
    this.entries.set(app, { value, readAt: this.clock() });
    return value;
  }
}
