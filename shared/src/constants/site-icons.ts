/**
 * The site's icons: files of the shell (`shell/public`, drawn from `favicon.svg` by
 * `scripts/render-favicons.mjs`), named in every page's head and in the web app manifest.
 */
export interface SiteIcon {
  href: string;
  sizes: string;
  type: string;
}

export const SITE_ICONS = {
  /** Asked for by default at `/favicon.ico`; the head names it 32×32 so browsers that take SVG prefer that. */
  ico: { href: '/favicon.ico', sizes: '16x16 32x32 48x48', type: 'image/x-icon' },
  svg: { href: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
  /** Square with no transparency: iOS rounds the corners itself. */
  appleTouch: { href: '/apple-touch-icon.png', sizes: '180x180', type: 'image/png' },
  /** The web app manifest's raster icons. */
  app: [
    { href: '/icon-192.png', sizes: '192x192', type: 'image/png' },
    { href: '/icon-512.png', sizes: '512x512', type: 'image/png' },
  ],
} as const satisfies Record<string, SiteIcon | readonly SiteIcon[]>;

/** The agency's logo in structured data: the largest raster icon. */
export const SITE_LOGO: SiteIcon = SITE_ICONS.app[1];

export const WEB_APP_MANIFEST_PATH = '/site.webmanifest';
