import { sanitizePostHtml } from './sanitize-post-html';

describe('sanitizePostHtml', () => {
  it('keeps the markup an article needs', () => {
    const html =
      '<h2>Заголовок</h2><p>Текст із <strong>акцентом</strong> і <a href="https://example.com/">посиланням</a>.</p>' +
      '<ul><li>пункт</li></ul><blockquote>цитата</blockquote>';
    expect(sanitizePostHtml(html)).toBe(html);
  });

  it('drops scripts, styles, event handlers and javascript: URLs', () => {
    const output = sanitizePostHtml(
      '<script>alert(1)</script><style>p{}</style><img src="x" onerror="alert(1)">' +
        '<a href="javascript:alert(1)">a</a><p style="color:red" onmouseover="alert(1)">p</p>',
    );
    expect(output).not.toMatch(/<script|<style|onerror|onmouseover|javascript:|style=/i);
    expect(output).toContain('<p>p</p>');
  });

  it('lets links open a new tab only with noopener noreferrer, and drops other targets', () => {
    expect(sanitizePostHtml('<a href="https://example.com/" target="_blank" rel="opener">x</a>')).toBe(
      '<a href="https://example.com/" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(sanitizePostHtml('<a href="https://example.com/" target="frame">x</a>')).toBe(
      '<a href="https://example.com/">x</a>',
    );
  });
});
