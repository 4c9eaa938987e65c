import fs from 'node:fs/promises';
import path from 'node:path';
import { REMOTES_PATH } from '@agency/shared';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { PUBLIC_DIR } from '../../platform/config';
import { APP_NAMES, distDir, entryFile, isRemote, RELEASE_MANIFEST, SHELL, type Delivery } from '../../delivery';
import { cacheControlFor, IMMUTABLE, isHashed, SHORT } from '../../platform/http/cache-policy';
import { BUILD_FILES } from './build-files';
import { COVERS_FOLDER, COVERS_URL_PREFIX, writeOnce } from '../content/cover-images';

/** A served media name: no path, no dotfile, no temporary file being written. */
const MEDIA_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const { SERVER_DIR } = BUILD_FILES;

export interface StaticOptions {
  /** Where `<app folder>/dist` is looked up. */
  staticRoot: string;
  releasesOf: Delivery['releasesOf'];
  /** MEDIA_DIR: prepared article covers and uploaded images are served from its `posts` folder. */
  mediaDir: string;
  /** An uploaded image this machine's disk does not have yet, from the database (undefined: none). */
  readMedia: (name: string) => Promise<Buffer | undefined>;
}

/**
 * The path below a route's wildcard as safe segments, or undefined for anything that could leave
 * the folder it is served from (`..`, `.`, empty segments, backslashes, NUL) or names a dotfile
 * (temp folders, lock and build stamps are never served).
 */
export function safeSegments(wildcard: string): string[] | undefined {
  const segments = wildcard.split('/');
  const unsafe = (segment: string) => segment === '' || segment.startsWith('.') || /[\\\0]/.test(segment);
  return segments.some(unsafe) ? undefined : segments;
}

/**
 * Source maps carry the original source: production builds write them hidden (no reference in the
 * bundles) and they stay beside the build, and in its releases, for error reporting, never served.
 * Compressed copies included, though the build does not write any.
 */
export function isSourceMap(file: string): boolean {
  return /\.map(?:\.(?:br|gz))?$/i.test(file);
}

/**
 * Files of a build or release that are never sent: the server bundle is for the API to run; source
 * maps; a release's manifest (its files' sizes and hashes, for the servers that fetch it).
 */
function isPrivateFile(file: string): boolean {
  return file === SERVER_DIR || file.startsWith(`${SERVER_DIR}/`) || isSourceMap(file) || file === RELEASE_MANIFEST;
}

async function isFile(file: string): Promise<boolean> {
  return fs.stat(file).then(
    (stats) => stats.isFile(),
    () => false,
  );
}

/** Streams `file` from `root` through @fastify/static (ETag, ranges, 304s); a missing file is a 404. */
function send(reply: FastifyReply, root: string, file: string, cacheControl: string): FastifyReply {
  // The body depends on Accept-Encoding (a precompressed copy or the file): caches must know.
  return reply.header('cache-control', cacheControl).header('vary', 'accept-encoding').sendFile(file, root);
}

/**
 * All-in-one mode: serves the shell at / and each remote under /remotes/<name>/, from their
 * published releases (delivery) or, for an app without one, straight from its dist folder.
 * Folders are looked up per request, so a new build or release shows without a restart. Also
 * serves the images in the repo under /media/, and article covers (written by the content sync,
 * hashed names, so cached for a year) under /media/posts/.
 */
export async function registerStatic(app: FastifyInstance, { staticRoot, releasesOf, mediaDir, readMedia }: StaticOptions): Promise<void> {
  await app.register(fastifyStatic, {
    root: path.join(PUBLIC_DIR, 'media'),
    prefix: '/media/',
    decorateReply: false,
    cacheControl: false,
    setHeaders: (res) => res.setHeader('cache-control', SHORT),
    allowedPath: (pathName) => !isSourceMap(pathName),
  });
  // Created here too: a site whose content folder is missing still serves (and finds no covers).
  const mediaRoot = path.join(mediaDir, COVERS_FOLDER);
  await fs.mkdir(mediaRoot, { recursive: true });
  // Only reply.sendFile(file, root): the routes below choose the folder. Cache headers are theirs.
  // The build writes brotli and gzip copies beside each text asset; the one the browser accepts
  // is sent as is (content-encoding, vary), so nothing is compressed per request.
  await app.register(fastifyStatic, { serve: false, cacheControl: false, index: false, preCompressed: true });

  /**
   * /media/posts/<name>: a cover the content sync prepared, or an image uploaded in the console on
   * any machine (copied from the database to this disk the first time it is asked for here).
   */
  app.get<{ Params: { name: string } }>(`${COVERS_URL_PREFIX}:name`, async (request, reply) => {
    const { name } = request.params;
    if (!MEDIA_NAME.test(name) || isSourceMap(name) || name.endsWith('.tmp')) return reply.callNotFound();
    if (!(await isFile(path.join(mediaRoot, name)))) {
      const bytes = await readMedia(name);
      if (!bytes) return reply.callNotFound();
      await writeOnce(path.join(mediaRoot, name), () => bytes);
    }
    return send(reply, mediaRoot, name, cacheControlFor(name));
  });

  /**
   * /remotes/<name>/<release id>/<file>: a kept release, `immutable` since its folder never changes.
   * /remotes/<name>/<file>: the remote's dist folder, cached by file kind.
   */
  app.get<{ Params: { name: string; '*': string } }>(`${REMOTES_PATH}:name/*`, async (request, reply) => {
    const { name } = request.params;
    const segments = safeSegments(request.params['*']);
    if (!isRemote(name) || !segments) return reply.callNotFound();
    // A shell on another origin may load this remote.
    reply.header('access-control-allow-origin', '*').header('cross-origin-resource-policy', 'cross-origin');
    const [first, ...rest] = segments;
    const keptRelease = async (fresh: boolean) => (await releasesOf(name, { fresh })).releases.find((kept) => kept.id === first);
    // A release this process has not read yet may be one another process published and serves
    // pages of already: the releases are read again before its files are taken for missing.
    const release = rest.length > 0 ? ((await keptRelease(false)) ?? (await keptRelease(true))) : undefined;
    if (release) return isPrivateFile(rest.join('/')) ? reply.callNotFound() : send(reply, release.dir, rest.join('/'), IMMUTABLE);
    const file = segments.join('/');
    if (isPrivateFile(file)) return reply.callNotFound();
    return send(reply, distDir(staticRoot, name), file, cacheControlFor(file));
  });

  /**
   * Where a shell file is looked up. The page (`index.html`) and every unhashed name come only from
   * the live shell: its current release, else shell/dist (exactly what client routes get, and never
   * a kept release that was refused or rolled back). A content-hashed name can never mean other
   * content, so it may also come from the other kept releases, newest first, then shell/dist: a
   * page opened before a deploy still finds its lazy chunks.
   */
  async function shellRoots(file: string, fresh = false): Promise<string[]> {
    const { releases: kept, current } = await releasesOf(SHELL, { fresh });
    const dist = distDir(staticRoot, SHELL);
    const live = current?.dir ?? dist;
    if (!isHashed(file)) return [live];
    const others = kept.filter((release) => release !== current).map((release) => release.dir);
    return [live, ...others, ...(current ? [dist] : [])];
  }

  app.get<{ Params: { '*': string } }>('/*', async (request, reply) => {
    const segments = safeSegments(request.params['*']);
    // Pages (the shell's index.html among them) are rendered, and kept, by the not-found handler.
    // A name without an extension (`blog/5`) is a page, never a file of the build: not looked for.
    const file = segments?.join('/');
    if (!file || file === 'index.html' || isPrivateFile(file) || path.extname(file) === '') return reply.callNotFound();
    // A hashed file may be one of a shell release another process has just published (see the
    // remotes' route): the releases are read again before it is taken for missing.
    for (const fresh of isHashed(file) ? [false, true] : [false]) {
      for (const root of await shellRoots(file, fresh)) {
        if (await isFile(path.join(root, file))) return send(reply, root, file, cacheControlFor(file));
      }
    }
    return reply.callNotFound();
  });

  for (const name of APP_NAMES) {
    const dist = distDir(staticRoot, name);
    if (!(await releasesOf(name)).current && !(await isFile(path.join(dist, entryFile(name))))) {
      app.log.warn({ root: dist }, `"${name}" is neither built nor released: its files will answer 404 until it is`);
    }
  }
}
