import type { Db } from '../../platform/db/connection';
import { APP_NAMES, type AppName } from './apps';
import { loadReleases, readReleasesRevision, withFolders, type AppReleases, type ReleaseInfo, type ReleaseRecord } from './release-repository';

/** How old the server's view of the releases may be before it asks the database again. */
export const REFRESH_MS = 1000;

/** Where a release's files are on this machine: the store's own folder, or a verified local copy. */
export interface ReleaseFolders {
  localDir(app: AppName, id: string): Promise<string>;
  /** Forgets local copies of releases not in `kept` (`<app>/<id>`). */
  keepOnly(kept: ReadonlySet<string>): Promise<void>;
}

const NONE: AppReleases<ReleaseInfo> = {
  releases: [],
  history: [],
  current: undefined,
  previous: undefined,
  candidate: undefined,
  events: [],
  state: { history: [], events: [], revision: 0 },
};

interface Snapshot {
  revision: number;
  apps: Map<AppName, AppReleases<ReleaseInfo>>;
}

/**
 * The server's view of the published releases, shared by every request. At most once a second it
 * reads the site-wide release revision (one tiny query); only when that moved does it read the
 * releases again and bring every kept release's files to this machine before showing the new
 * state, so a change made by any process on any machine is served here within about a second and
 * no request ever meets a release whose files are not here yet. Release files never change, so a
 * folder once fetched is reused until the release is no longer kept.
 */
export class ReleaseReader {
  private snapshot: Snapshot | undefined;
  private checkedAt = -Infinity;
  private pending: Promise<Snapshot | undefined> | undefined;
  private readonly folders = new Map<string, string>();

  constructor(
    private readonly db: Db,
    private readonly files: ReleaseFolders,
    private readonly onError: (error: unknown) => void = () => {},
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * An app's releases, read at most REFRESH_MS ago. `fresh`: read now however recent the last read
   * (for a request naming a release this process does not know, which another process may have
   * published since: its pages may already send visitors here for its files).
   */
  async get(app: AppName, { fresh = false }: { fresh?: boolean } = {}): Promise<AppReleases<ReleaseInfo>> {
    if (fresh || !this.snapshot || this.clock() - this.checkedAt >= REFRESH_MS) {
      // Concurrent requests share one check.
      this.pending ??= this.refresh().finally(() => (this.pending = undefined));
      await this.pending;
    }
    return this.snapshot?.apps.get(app) ?? NONE;
  }

  private async refresh(): Promise<Snapshot | undefined> {
    try {
      const revision = await readReleasesRevision(this.db);
      if (this.snapshot?.revision !== revision) this.snapshot = await this.load();
    } catch (error) {
      // An unreadable state (database or store unreachable) keeps what was served before.
      this.onError(error);
    }
    this.checkedAt = this.clock();
    return this.snapshot;
  }

  private async load(): Promise<Snapshot> {
    const { revision, apps } = await loadReleases(this.db);
    const kept = new Set<string>();
    const releases: ReleaseRecord[] = [];
    for (const app of apps.values()) releases.push(...app.releases);
    await Promise.all(
      releases.map(async (release) => {
        const key = `${release.app}/${release.id}`;
        kept.add(key);
        if (!this.folders.has(key)) this.folders.set(key, await this.files.localDir(release.app, release.id));
      }),
    );
    for (const key of this.folders.keys()) if (!kept.has(key)) this.folders.delete(key);
    await this.files.keepOnly(kept);
    const withDirs = new Map<AppName, AppReleases<ReleaseInfo>>();
    for (const name of APP_NAMES) {
      const app = apps.get(name);
      if (app) withDirs.set(name, withFolders(app, (release) => this.folders.get(`${release.app}/${release.id}`)!));
    }
    return { revision, apps: withDirs };
  }
}
