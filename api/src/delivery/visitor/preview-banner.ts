import { localBuildOrigin, PREVIEW_BANNER, PREVIEW_EXIT_PATH, PREVIEW_QUERY_PARAM, REMOTE_OVERRIDE_BANNER, REMOTE_OVERRIDE_EXIT_PATH } from '@agency/shared';
import { escapeHtml } from '../../platform/lib/escape-html';
import type { RemoteOverride } from './remote-override';
import type { VisitorReleases } from './visitor-releases';

/** The exit link (`exitPath`) that returns the visitor to the page's own path, without a preview link's token. */
export function exitHref(requestUrl: string, exitPath = PREVIEW_EXIT_PATH): string {
  const url = new URL(requestUrl, 'http://site.invalid');
  url.searchParams.delete(PREVIEW_QUERY_PARAM);
  return `${exitPath}?${new URLSearchParams({ to: `${url.pathname}${url.search}` }).toString()}`;
}

/** A banner fixed at the bottom of the window, before the page's root: what it says, and a link. */
function banner(attribute: string, label: string, text: string, href: string, action: string): string {
  return (
    `<aside ${attribute} aria-label="${label}" style="position:fixed;inset:auto 0 0 0;z-index:1000;display:flex;gap:1rem;` +
    `justify-content:center;align-items:center;padding:.75rem 1rem;background:#1b1b1f;color:#fff;font:600 1rem/1.4 system-ui,sans-serif">` +
    `<span>${escapeHtml(text)}</span>` +
    `<a href="${escapeHtml(href)}" style="color:#fff;text-decoration:underline">${escapeHtml(action)}</a></aside>`
  );
}

/** `html` with `aside` before the page's root, and `noindex` for search engines. */
function withBanner(html: string, aside: string): string {
  return html.replace(/<\/head>/, () => `  <meta name="robots" content="noindex">\n  </head>`).replace(/<div id="root">/, (root) => `${aside}${root}`);
}

/**
 * The banner of a preview, or of a preview link that could not be used, put before the page's
 * root: the server's own markup, outside what React hydrates, so it works with any shell release.
 * Fixed at the bottom of the window, it moves nothing on the page.
 */
export function previewBanner(visitor: Pick<VisitorReleases, 'preview' | 'previewNotice'>, requestUrl: string): string {
  const text = visitor.preview ? PREVIEW_BANNER.pinned(visitor.preview.app, visitor.preview.release) : PREVIEW_BANNER[visitor.previewNotice ?? 'invalid'];
  const action = visitor.preview ? PREVIEW_BANNER.exit : PREVIEW_BANNER.close;
  return banner('data-preview-banner', PREVIEW_BANNER.label, text, exitHref(requestUrl), action);
}

/** A rendered page with the preview banner, and `noindex` for search engines. */
export function withPreviewBanner(html: string, visitor: Pick<VisitorReleases, 'preview' | 'previewNotice'>, requestUrl: string): string {
  return withBanner(html, previewBanner(visitor, requestUrl));
}

/** A page of a browser with an override: the banner that names the remote and what replaces it, with its exit link. */
export function withOverrideBanner(html: string, override: RemoteOverride, requestUrl: string): string {
  const { app, target } = override;
  const text = 'release' in target ? REMOTE_OVERRIDE_BANNER.release(app, target.release) : REMOTE_OVERRIDE_BANNER.local(app, localBuildOrigin(target.port));
  return withBanner(html, banner('data-override-banner', REMOTE_OVERRIDE_BANNER.label, text, exitHref(requestUrl, REMOTE_OVERRIDE_EXIT_PATH), REMOTE_OVERRIDE_BANNER.exit));
}
