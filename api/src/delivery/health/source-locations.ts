import fs from 'node:fs/promises';
import path from 'node:path';
import { REMOTES_PATH, UNRELEASED } from '@agency/shared';
import { SourceMapConsumer, type RawSourceMap } from 'source-map';
import { appFolder, distDir, isRemote, SHELL, type AppName } from '../releases/apps';
import type { AppReleases, ReleaseInfo } from '../releases/release-repository';
import type { LocateSource } from './release-health';

export interface SourceLocatorOptions {
  /** Where `<app folder>/dist` is looked up (STATIC_ROOT). */
  staticRoot: string;
  /** The app's kept releases. */
  releasesOf(app: AppName): Promise<AppReleases<ReleaseInfo>>;
}

interface Frame {
  url: string;
  line: number;
  column: number;
}

/** A parsed source map, and its `sources` as the build wrote them. */
interface ParsedMap {
  map: SourceMapConsumer;
  sources: string[];
}

/** Where a frame's script came from: the app, the folder of the build, the file in it. */
interface FrameFile {
  app: AppName;
  dirs: string[];
  file: string;
}

/** Every `url:line:column` of a stack trace (Chromium's and Firefox's formats), top first. */
export function stackFrames(stack: string): Frame[] {
  const frames: Frame[] = [];
  for (const match of stack.matchAll(/((?:https?:\/\/|\/)[^\s()@]*?):(\d+):(\d+)/g)) {
    frames.push({ url: match[1]!, line: Number(match[2]), column: Number(match[3]) });
  }
  return frames;
}

/**
 * The original file of a webpack source (`webpack://agency_blog/./src/features/x.tsx`), from the
 * repository's root: `mfe-blog/src/features/x.tsx`, `shared/src/…`, `node_modules/…`.
 */
export function repoPath(app: AppName, source: string): string {
  const relative = source.replace(/^webpack:\/\/[^/]*\//, '').replace(/\?.*$/, '');
  const resolved = path.posix.normalize(path.posix.join(appFolder(app), relative));
  return resolved.replace(/^(?:\.\.\/)+/, '');
}

/**
 * Maps stack traces to original source with each release's hidden source maps (the `.map` files
 * kept beside its bundles, never served). The location reported is the top frame in the site's own
 * code (not in a library), else the top frame that maps at all. Parsed maps are kept while the
 * locator lives: a report reads a handful.
 */
export function createSourceLocator({ staticRoot, releasesOf }: SourceLocatorOptions): LocateSource & { close(): void } {
  const consumers = new Map<string, Promise<ParsedMap | undefined>>();

  async function consumer(mapFile: string): Promise<ParsedMap | undefined> {
    let pending = consumers.get(mapFile);
    if (!pending) {
      pending = fs
        .readFile(mapFile, 'utf8')
        .then(async (text) => {
          const raw = JSON.parse(text) as RawSourceMap;
          // The consumer resolves each source as a URL, which drops its `..` segments
          // (`webpack://agency_blog/../shared/src/x.ts` would come back as `…/shared/src/x.ts`):
          // it is given the sources' indexes instead, and a position's source is read back as written.
          const sources = raw.sources;
          const map = await new SourceMapConsumer({ ...raw, sourceRoot: undefined, sources: sources.map((_, index) => String(index)) });
          return { map, sources };
        })
        .catch(() => undefined);
      consumers.set(mapFile, pending);
    }
    return pending;
  }

  /** Build folders that may hold `app`'s file: the release named first, then every kept one and dist. */
  async function buildDirs(app: AppName, release: string | undefined): Promise<string[]> {
    const kept = (await releasesOf(app)).releases;
    const named = release === UNRELEASED ? [distDir(staticRoot, app)] : kept.filter((info) => info.id === release).map((info) => info.dir);
    return [...new Set([...named, ...kept.map((info) => info.dir), distDir(staticRoot, app)])];
  }

  async function frameFile(frame: Frame, app: AppName, release: string): Promise<FrameFile | undefined> {
    let pathname: string;
    try {
      pathname = new URL(frame.url, 'http://localhost').pathname;
    } catch {
      return undefined;
    }
    if (pathname.startsWith(REMOTES_PATH)) {
      const [name, ...rest] = pathname.slice(REMOTES_PATH.length).split('/');
      if (!name || !isRemote(name) || rest.length === 0) return undefined;
      // /remotes/<name>/<release>/<file> (a kept release) or /remotes/<name>/<file> (its dist).
      const [first, ...file] = rest;
      const kept = (await releasesOf(name)).releases.find((info) => info.id === first);
      if (kept && file.length > 0) return { app: name, dirs: [kept.dir], file: file.join('/') };
      return { app: name, dirs: [distDir(staticRoot, name)], file: rest.join('/') };
    }
    // The shell's files are served from the site's root; hashed names are the same file in any release.
    return { app: SHELL, dirs: await buildDirs(SHELL, app === SHELL ? release : undefined), file: pathname.slice(1) };
  }

  async function locate(frame: Frame, app: AppName, release: string): Promise<string | undefined> {
    const where = await frameFile(frame, app, release);
    if (!where || where.file === '' || where.file.split('/').some((segment) => segment === '..' || segment.startsWith('.'))) return undefined;
    for (const dir of where.dirs) {
      const parsed = await consumer(path.join(dir, `${where.file}.map`));
      if (!parsed) continue;
      // Stack columns count from 1, source map columns from 0.
      const original = parsed.map.originalPositionFor({ line: frame.line, column: Math.max(0, frame.column - 1) });
      const source = original.source === null ? undefined : parsed.sources[Number(original.source)];
      if (!source || original.line === null) continue;
      return `${repoPath(where.app, source)}:${original.line}:${(original.column ?? 0) + 1}`;
    }
    return undefined;
  }

  const locateSource = async (app: AppName, release: string, stack: string): Promise<string | null> => {
    let fallback: string | undefined;
    for (const frame of stackFrames(stack)) {
      const source = await locate(frame, app, release);
      if (!source) continue;
      if (!source.startsWith('node_modules/')) return source;
      fallback ??= source;
    }
    return fallback ?? null;
  };
  return Object.assign(locateSource, {
    close() {
      for (const pending of consumers.values()) void pending.then((parsed) => parsed?.map.destroy());
      consumers.clear();
    },
  });
}
