import MarkdownIt from 'markdown-it';
import { sanitizeBlogHtml } from './sanitize';

/**
 * CommonMark plus tables and strikethrough (markdown-it's defaults). HTML inside the Markdown is
 * allowed (a <figure>, say) because everything goes through the blog's allow-list afterwards;
 * bare URLs become links.
 */
const markdown = new MarkdownIt({ html: true, linkify: true, typographer: false });

/** An article's Markdown as the sanitized HTML the site shows. */
export function renderArticle(source: string): string {
  return sanitizeBlogHtml(markdown.render(source));
}
