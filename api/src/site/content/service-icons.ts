import sanitizeHtml from 'sanitize-html';
import sharp from 'sharp';
import { COVERS_URL_PREFIX, contentHash, PIPELINE } from './cover-images';
import { ImageRefused } from './image-uploads';

/**
 * A service's icon uploaded in the console. An SVG is served from the site's own origin, so it is
 * rebuilt from an allow-list of drawing elements and attributes: no script, no event attribute,
 * no style, no foreign content, and no reference outside the file itself (links and paint only to
 * `#fragments`). A PNG or WebP goes through the image pipeline: the 112×112 PNG the 56-pixel icon
 * needs on a sharp screen, its shape and transparency kept. Judged by content, never by name.
 */

export const ICON_SIZE = 112;

export const ICON_MESSAGES = {
  notAnIcon: 'Іконка має бути зображенням SVG, PNG чи WebP',
  broken: 'Іконку не вдалося обробити: файл пошкоджений',
  emptySvg: 'У SVG не лишилося нічого, що можна намалювати',
} as const;

const SVG_TAGS = [
  'svg', 'g', 'path', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'rect', 'defs', 'linearGradient', 'radialGradient',
  'stop', 'clipPath', 'mask', 'symbol', 'use', 'title', 'desc', 'text', 'tspan',
];
const SVG_ATTRIBUTES = [
  'viewbox', 'width', 'height', 'xmlns', 'xmlns:xlink', 'version', 'fill', 'fill-rule', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-linecap',
  'stroke-linejoin', 'stroke-miterlimit', 'stroke-dasharray', 'stroke-dashoffset', 'stroke-opacity', 'opacity', 'clip-rule', 'clip-path',
  'mask', 'd', 'cx', 'cy', 'r', 'rx', 'ry', 'fx', 'fy', 'x', 'y', 'x1', 'y1', 'x2', 'y2', 'points', 'transform', 'id', 'offset',
  'stop-color', 'stop-opacity', 'gradientunits', 'gradienttransform', 'spreadmethod', 'preserveaspectratio', 'href', 'xlink:href',
  'font-size', 'font-family', 'font-weight', 'text-anchor', 'dominant-baseline', 'vector-effect',
];

/** A reference is kept only when it points inside the file: `#id`, `url(#id)`. */
function external(name: string, value: string): boolean {
  if (name === 'href' || name === 'xlink:href') return !value.trim().startsWith('#');
  return /url\s*\(\s*(?!['"]?#)/i.test(value);
}

const ALLOWED_ATTRIBUTES = new Set(SVG_ATTRIBUTES);

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: SVG_TAGS,
  // Every attribute is judged by the transform below: allowed by name, never an event handler, and
  // never a reference outside the file.
  allowedAttributes: false,
  allowedSchemesAppliedToAttributes: [],
  // XML keeps the case it is written in (viewBox, linearGradient); tags and names compare in lower case.
  parser: { xmlMode: true, lowerCaseTags: false, lowerCaseAttributeNames: false },
  nonTextTags: ['script', 'style', 'foreignObject', 'foreignobject', 'textarea', 'noscript'],
  transformTags: {
    '*': (tagName, attribs) => ({
      tagName,
      attribs: Object.fromEntries(
        Object.entries(attribs).filter(([name, value]) => ALLOWED_ATTRIBUTES.has(name.toLowerCase()) && !external(name.toLowerCase(), value)),
      ),
    }),
  },
};

function looksLikeSvg(bytes: Buffer): boolean {
  const head = bytes.subarray(0, 4096).toString('utf8').replace(/^\uFEFF/, '');
  return /^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>]/i.test(head);
}

/** The SVG rebuilt from the allow-list: what the site serves. */
export function sanitizeSvg(svg: string): string {
  return sanitizeHtml(svg, OPTIONS).trim();
}

export interface PreparedIcon {
  name: string;
  url: string;
  bytes: Buffer;
}

export async function prepareServiceIcon(input: Buffer, slug: string): Promise<PreparedIcon> {
  const hash = contentHash(PIPELINE, 'icon', input);
  if (looksLikeSvg(input)) {
    const svg = sanitizeSvg(input.toString('utf8'));
    if (!/^<svg[\s>]/i.test(svg)) throw new ImageRefused(ICON_MESSAGES.emptySvg);
    const bytes = Buffer.from(svg.includes('xmlns=') ? svg : svg.replace(/^<svg/i, '<svg xmlns="http://www.w3.org/2000/svg"'), 'utf8');
    // What is served must still draw.
    await sharp(bytes).metadata().catch(() => {
      throw new ImageRefused(ICON_MESSAGES.broken);
    });
    const name = `${slug}.${hash}.svg`;
    return { name, url: `${COVERS_URL_PREFIX}${name}`, bytes };
  }
  const format = await sharp(input)
    .metadata()
    .then((metadata) => metadata.format)
    .catch(() => undefined);
  if (format !== 'png' && format !== 'webp') throw new ImageRefused(ICON_MESSAGES.notAnIcon);
  const bytes = await sharp(input)
    .resize(ICON_SIZE, ICON_SIZE, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer()
    .catch(() => {
      throw new ImageRefused(ICON_MESSAGES.broken);
    });
  const name = `${slug}.${hash}.png`;
  return { name, url: `${COVERS_URL_PREFIX}${name}`, bytes };
}
