import { typeset } from '@agency/shared';
import MarkdownIt from 'markdown-it';
import { sizeFromImageUrl } from './inline-image-names';
import { sanitizeBlogHtml } from './sanitize';

/**
 * CommonMark plus tables and strikethrough (markdown-it's defaults). HTML inside the Markdown is
 * allowed (a <figure>, say) because everything goes through the blog's allow-list afterwards;
 * bare URLs become links. markdown-it's own typographer stays off: the site's typography is
 * shared `typeset`, applied by the rule below.
 */
const markdown = new MarkdownIt({ html: true, linkify: true, typographer: false });

// markdown-it's core state and token types, read off the instance: its CommonJS typings (the API)
// and its ESM typings (the browser suite's type-check, which reaches this file) name them differently.
type StateCore = Parameters<typeof markdown.core.process>[0];
type Token = StateCore['tokens'][number];

/**
 * Typesets the prose of an article: the text tokens of every paragraph, heading, list item and
 * table cell. Never code (inline or blocks), raw HTML, attributes (link targets, image alt text)
 * nor the text of a bare URL made a link. Runs before `text_join`, so a character the author
 * escaped (`\"`) or wrote as an entity (`&quot;`) stays as written.
 */
function typesetTextTokens(state: StateCore): void {
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    block.children = joinSoftBreaks(block.children, state.md.options.breaks ?? false);
    let insideAutoLink = false;
    for (const token of block.children) {
      if (token.type === 'link_open') insideAutoLink = token.info === 'auto';
      else if (token.type === 'link_close') insideAutoLink = false;
      else if (token.type === 'text' && !insideAutoLink) token.content = typeset(token.content);
    }
  }
}

/**
 * A line break inside a paragraph (without `breaks`) renders as a newline, which the browser
 * shows as a space: made a space of the surrounding text, so «в» at the end of a source line
 * still keeps to the next word.
 */
function joinSoftBreaks(children: Token[], breaks: boolean): Token[] {
  const joined: Token[] = [];
  for (const token of children) {
    if (!breaks && token.type === 'softbreak') {
      token.type = 'text';
      token.content = ' ';
    }
    const previous = joined[joined.length - 1];
    if (token.type === 'text' && previous?.type === 'text') previous.content += token.content;
    else joined.push(token);
  }
  return joined;
}

markdown.core.ruler.before('text_join', 'typeset', typesetTextTokens);

/**
 * A picture uploaded in the console names its size: the page reserves its space (no jump when it
 * loads) and loads it only when near.
 */
const renderImage = markdown.renderer.rules.image!;
markdown.renderer.rules.image = (tokens, index, options, env, self) => {
  const token = tokens[index]!;
  const size = sizeFromImageUrl(String(token.attrGet('src') ?? ''));
  if (size) {
    token.attrSet('width', String(size.width));
    token.attrSet('height', String(size.height));
    token.attrSet('loading', 'lazy');
  }
  return renderImage(tokens, index, options, env, self);
};

/** An article's Markdown as the sanitized HTML the site shows. */
export function renderArticle(source: string): string {
  return sanitizeBlogHtml(markdown.render(source));
}
