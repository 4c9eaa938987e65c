import { PREVIEW_BANNER, PREVIEW_EXIT_PATH, PREVIEW_QUERY_PARAM } from '@agency/shared';
import { escapeHtml } from '../../platform/lib/escape-html';
import type { VisitorReleases } from './visitor-releases';

/** Where the exit link returns the visitor to: the page's own path, without the preview link's token. */
export function exitHref(requestUrl: string): string {
  const url = new URL(requestUrl, 'http://site.invalid');
  url.searchParams.delete(PREVIEW_QUERY_PARAM);
  return `${PREVIEW_EXIT_PATH}?${new URLSearchParams({ to: `${url.pathname}${url.search}` }).toString()}`;
}

/**
 * The banner of a preview, or of a preview link that could not be used, put before the page's
 * root: the server's own markup, outside what React hydrates, so it works with any shell release.
 * Fixed at the bottom of the window, it moves nothing on the page.
 */
export function previewBanner(visitor: Pick<VisitorReleases, 'preview' | 'previewNotice'>, requestUrl: string): string {
  const text = visitor.preview ? PREVIEW_BANNER.pinned(visitor.preview.app, visitor.preview.release) : PREVIEW_BANNER[visitor.previewNotice ?? 'invalid'];
  const action = visitor.preview ? PREVIEW_BANNER.exit : PREVIEW_BANNER.close;
  return (
    `<aside data-preview-banner aria-label="${PREVIEW_BANNER.label}" style="position:fixed;inset:auto 0 0 0;z-index:1000;display:flex;gap:1rem;` +
    `justify-content:center;align-items:center;padding:.75rem 1rem;background:#1b1b1f;color:#fff;font:600 1rem/1.4 system-ui,sans-serif">` +
    `<span>${escapeHtml(text)}</span>` +
    `<a href="${escapeHtml(exitHref(requestUrl))}" style="color:#fff;text-decoration:underline">${escapeHtml(action)}</a></aside>`
  );
}

/** A rendered page with the preview banner, and `noindex` for search engines. */
export function withPreviewBanner(html: string, visitor: Pick<VisitorReleases, 'preview' | 'previewNotice'>, requestUrl: string): string {
  return html
    .replace(/<\/head>/, () => `  <meta name="robots" content="noindex">\n  </head>`)
    .replace(/<div id="root">/, (root) => `${previewBanner(visitor, requestUrl)}${root}`);
}
