import { BLOG_LISTING_PATH, BRAND, SITE_ICONS, STAFF_PATHS, WEB_APP_MANIFEST_PATH, type SiteIcon } from '@agency/shared';
import { ERROR_RESPONSES } from '@agency/shared/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { Database } from '../../platform/db/connection';
import { listPublishedPostDates } from './content-repository';
import { SHORT } from '../../platform/http/cache-policy';

/** robots.txt rarely changes; an hour keeps crawlers from asking on every visit. */
const ROBOTS_CACHE_CONTROL = 'public, max-age=3600';
/** Short, so a new post reaches the sitemap within minutes. */
const SITEMAP_CACHE_CONTROL = 'public, max-age=300';

const SITEMAP_NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** robots.txt and the sitemap answer a text body: the schema documents it; the text itself is sent as is. */
const textResponseSchema = { response: { 200: Type.String(), ...ERROR_RESPONSES } };

const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Escapes text for XML content or attributes. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => XML_ENTITIES[char] ?? char);
}

export function robotsTxt(origin: string): string {
  // The API and the remotes' bundles are no pages, the staff console is no one's business; everything else is the site.
  return ['User-agent: *', 'Allow: /', 'Disallow: /api/', 'Disallow: /remotes/', `Disallow: ${STAFF_PATHS.home}`, '', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n');
}

function urlEntry(loc: string, lastmod: string | undefined): string {
  const lastmodLine = lastmod ? `\n    <lastmod>${escapeXml(lastmod)}</lastmod>` : '';
  return `  <url>\n    <loc>${escapeXml(loc)}</loc>${lastmodLine}\n  </url>`;
}

/**
 * The home page, the blog listing, then every post (newest first); dates are ISO strings, which
 * W3C date-times allow. The listing's category and later pages are reached from it.
 */
export function sitemapXml(origin: string, posts: readonly { id: number; updated_at: string }[]): string {
  // The home page shows the latest posts (its blog teaser) and the listing all of them, so both
  // change whenever one does.
  const latest = posts.map((post) => post.updated_at).sort().at(-1);
  const entries = [urlEntry(`${origin}/`, latest), urlEntry(`${origin}${BLOG_LISTING_PATH}`, latest)];
  for (const post of posts) entries.push(urlEntry(`${origin}/blog/${post.id}`, post.updated_at));
  return ['<?xml version="1.0" encoding="UTF-8"?>', `<urlset xmlns="${SITEMAP_NAMESPACE}">`, ...entries, '</urlset>', ''].join('\n');
}

const ManifestIconSchema = Type.Object({ src: Type.String(), sizes: Type.String(), type: Type.String() });
const WebAppManifestSchema = Type.Object({
  name: Type.String(),
  short_name: Type.String(),
  description: Type.String(),
  lang: Type.String(),
  dir: Type.Literal('ltr'),
  start_url: Type.String(),
  scope: Type.String(),
  display: Type.Literal('browser'),
  theme_color: Type.String(),
  background_color: Type.String(),
  icons: Type.Array(ManifestIconSchema),
});

/**
 * The web app manifest: the name, colours and icons a browser shows for the site (a shortcut on a
 * home screen, a tab's colour). It opens as a site in the browser, not as an app of its own.
 */
export function webAppManifest(): Static<typeof WebAppManifestSchema> {
  const icon = ({ href, sizes, type }: SiteIcon) => ({ src: href, sizes, type });
  return {
    name: BRAND.fullName,
    short_name: BRAND.name,
    description: BRAND.tagline,
    lang: 'uk',
    dir: 'ltr',
    start_url: '/',
    scope: '/',
    display: 'browser',
    theme_color: BRAND.colors.theme,
    background_color: BRAND.colors.background,
    icons: [...SITE_ICONS.app.map(icon), icon(SITE_ICONS.svg)],
  };
}

/** `siteUrl` is the site's public origin (SITE_URL): never the request's Host, which the client chooses. */
export const seoRoutes: FastifyPluginAsyncTypebox<{ db: Database; siteUrl: string }> = async (app, { db, siteUrl }) => {
  const robots = robotsTxt(siteUrl);
  app.get('/robots.txt', { schema: textResponseSchema }, async (_request, reply) =>
    reply.header('cache-control', ROBOTS_CACHE_CONTROL).type('text/plain; charset=utf-8').send(robots),
  );

  // Served by the API, not as a shell file, so it is made from the same facts as the pages' heads;
  // those never change while the process runs, so it is made once.
  const manifest = webAppManifest();
  app.get(WEB_APP_MANIFEST_PATH, { schema: { response: { 200: WebAppManifestSchema, ...ERROR_RESPONSES } } }, async (_request, reply) =>
    reply.header('cache-control', SHORT).type('application/manifest+json; charset=utf-8').send(manifest),
  );

  app.get('/sitemap.xml', { schema: textResponseSchema }, async (_request, reply) => {
    // Read before any header is set, so a database error still gets the usual JSON error reply.
    const posts = await listPublishedPostDates(db);
    return reply
      .header('cache-control', SITEMAP_CACHE_CONTROL)
      .type('application/xml; charset=utf-8')
      .send(sitemapXml(siteUrl, posts));
  });
};
