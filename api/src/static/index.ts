import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { REMOTE_NAMES, remoteBasePath, type RemoteName } from '@agency/shared';
import type { FastifyInstance } from 'fastify';
import { PUBLIC_DIR } from '../config';
import { cacheControlFor, SHORT } from './cache-policy';

const REMOTE_DIRS: Record<RemoteName, string> = {
  home: 'mfe-home/dist',
  blog: 'mfe-blog/dist',
  forms: 'mfe-forms/dist',
};

export interface StaticSite {
  /** shell/dist/index.html when the shell is built, for the HTML fallback. */
  shellIndex: string | undefined;
}

/**
 * All-in-one mode: serves the built shell at / and each remote under /remotes/<name>/,
 * each only when its dist folder exists. Also serves the seed images under /media/.
 */
export async function registerStatic(app: FastifyInstance, staticRoot: string): Promise<StaticSite> {
  await app.register(fastifyStatic, {
    root: path.join(PUBLIC_DIR, 'media'),
    prefix: '/media/',
    decorateReply: false,
    cacheControl: false,
    setHeaders: (res) => res.setHeader('cache-control', SHORT),
  });

  for (const name of REMOTE_NAMES) {
    const root = path.join(staticRoot, REMOTE_DIRS[name]);
    if (!fs.existsSync(root)) {
      app.log.warn({ root }, `remote "${name}" is not built; ${remoteBasePath(name)} will answer 404`);
      continue;
    }
    await app.register(fastifyStatic, {
      root,
      prefix: remoteBasePath(name),
      decorateReply: false,
      cacheControl: false,
      index: false,
      setHeaders: (res, filePath) => {
        res.setHeader('cache-control', cacheControlFor(filePath));
        // A shell on another origin may load this remote.
        res.setHeader('access-control-allow-origin', '*');
        res.setHeader('cross-origin-resource-policy', 'cross-origin');
      },
    });
  }

  const shellRoot = path.join(staticRoot, 'shell/dist');
  const shellIndex = path.join(shellRoot, 'index.html');
  if (!fs.existsSync(shellRoot)) {
    app.log.warn({ root: shellRoot }, 'the shell is not built; / will answer 404');
    return { shellIndex: undefined };
  }
  await app.register(fastifyStatic, {
    root: shellRoot,
    prefix: '/',
    decorateReply: false,
    cacheControl: false,
    setHeaders: (res, filePath) => res.setHeader('cache-control', cacheControlFor(filePath)),
  });
  return { shellIndex: fs.existsSync(shellIndex) ? shellIndex : undefined };
}
