import { Type } from '@sinclair/typebox';
import { invalid, optionalText, readEnv, repoPath, variable, type Env } from './env';
import { ServerEnv } from './server';

export interface SiteConfig {
  /**
   * The public origin of the site (SITE_URL, e.g. https://khvylia.com.ua) used in canonical links,
   * Open Graph URLs, robots.txt and the sitemap. Never taken from a request: see resolveSiteUrl.
   */
  siteUrl: string;
  /** Folder of the blog's Markdown articles (CONTENT_DIR), synced into the database at start. */
  contentDir: string;
  /** Folder of files the server writes and serves under /media/ (MEDIA_DIR): prepared covers. */
  mediaDir: string;
}

/**
 * SITE_URL → its origin (`https://example.com`, no trailing slash), or undefined when unset. Only a
 * bare origin is accepted: a path, query or hash would be silently dropped from every link built on it.
 */
const siteUrl = variable((value) => {
  const trimmed = value.trim();
  if (!trimmed) return undefined;
  const url = URL.canParse(trimmed) ? new URL(trimmed) : undefined;
  if (
    url &&
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.pathname === '/' &&
    // A bare `?` or `#` leaves search and hash empty, so the text itself is checked too.
    !/[?#]/.test(trimmed) &&
    // Credentials would be dropped from the origin without a word.
    url.username === '' &&
    url.password === ''
  ) {
    return url.origin;
  }
  return invalid(`must be an http(s) origin such as https://example.com, got "${value}"`);
});

export const SiteEnv = Type.Object({
  SITE_URL: siteUrl,
  NODE_ENV: optionalText(),
  CONTENT_DIR: repoPath('content/blog'),
  MEDIA_DIR: repoPath('data/media'),
});

type SiteVars = { SITE_URL?: string; NODE_ENV?: string };

/**
 * SITE_URL, required in production (NODE_ENV=production, as the container images run): the Host
 * and X-Forwarded-Host headers are chosen by the client, and a page or sitemap built on them
 * would, once cached by this server, nginx or a CDN, send every visitor to whatever host one
 * request named. Elsewhere (`npm start` on a laptop) it defaults to the server's own address.
 */
function siteUrlOf({ SITE_URL, NODE_ENV }: SiteVars, port: number): string {
  if (SITE_URL) return SITE_URL;
  if (NODE_ENV === 'production') {
    throw new Error(
      'SITE_URL must be set in production: the public origin of the site, such as https://khvylia.com.ua, which every canonical link, preview and sitemap address is built on',
    );
  }
  return `http://localhost:${port}`;
}

/** The site's origin alone, for commands that build links (see siteUrlOf); off production, the server's PORT names it. */
export function resolveSiteUrl(env: Env): string {
  return siteUrlOf(readEnv(Type.Pick(SiteEnv, ['SITE_URL', 'NODE_ENV']), env), readEnv(Type.Pick(ServerEnv, ['PORT']), env).PORT);
}

/** Where articles are read from and their covers written to; shared by the server and `npm run content`. */
export function loadContentConfig(env: Env = process.env): Pick<SiteConfig, 'contentDir' | 'mediaDir'> {
  const vars = readEnv(Type.Pick(SiteEnv, ['CONTENT_DIR', 'MEDIA_DIR']), env);
  return { contentDir: vars.CONTENT_DIR, mediaDir: vars.MEDIA_DIR };
}

/** `port` is the server's: off production the site's address defaults to it. */
export function loadSiteConfig(env: Env, port: number): SiteConfig {
  const vars = readEnv(SiteEnv, env);
  return { siteUrl: siteUrlOf(vars, port), contentDir: vars.CONTENT_DIR, mediaDir: vars.MEDIA_DIR };
}
