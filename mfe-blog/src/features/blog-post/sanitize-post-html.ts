import createDOMPurify, { type Config, type DOMPurify } from 'dompurify';

// The API sanitizes on write; the page sanitizes again because it must not trust stored HTML.
const CONFIG: Config = {
  USE_PROFILES: { html: true },
  // Article links may open a new tab; the hook below makes that safe.
  ADD_ATTR: ['target'],
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select'],
  FORBID_ATTR: ['style'],
};

let purifier: DOMPurify | undefined;

/** A private instance, so the hook never leaks into other users of the DOMPurify singleton. */
function getPurifier(): DOMPurify {
  if (!purifier) {
    purifier = createDOMPurify(window);
    purifier.addHook('afterSanitizeAttributes', (node) => {
      if (!(node instanceof Element) || !node.hasAttribute('target')) return;
      if (node.getAttribute('target') === '_blank') {
        // Without these the opened page could reach back through window.opener.
        node.setAttribute('rel', 'noopener noreferrer');
      } else {
        node.removeAttribute('target');
      }
    });
  }
  return purifier;
}

/**
 * Article HTML with scripts, event handlers and javascript: URLs removed: what the browser does to
 * a post it fetched from the API, which sanitized it on write with the same allow-list.
 */
export function sanitizePostHtml(html: string): string {
  return getPurifier().sanitize(html, CONFIG);
}
