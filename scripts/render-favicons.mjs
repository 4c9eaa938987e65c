// Draws the site's icons from shell/public/favicon.svg with the local Chromium: the PNGs that
// SITE_ICONS names and favicon.ico (16, 32 and 48 px in one file). Run after changing the SVG:
// `npx tsx scripts/render-favicons.mjs` (tsx reads the TypeScript list of icons).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import pngToIco from 'png-to-ico';
import { SITE_ICONS } from '../shared/src/constants/site-icons.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const publicDir = path.join(root, 'shell/public');
const svg = fs.readFileSync(path.join(publicDir, SITE_ICONS.svg.href), 'utf8');
// iOS rounds the touch icon's corners itself: transparent corners would show as black.
const squareSvg = svg.replace(/ rx="[^"]*"/, '');
const side = (icon) => Number(/^(\d+)x\1$/.exec(icon.sizes)?.[1]);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage();
  const draw = async (source, size) => {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(`<style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${source}`);
    return page.screenshot({ type: 'png', omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
  };
  for (const icon of SITE_ICONS.app) fs.writeFileSync(path.join(publicDir, icon.href), await draw(svg, side(icon)));
  fs.writeFileSync(path.join(publicDir, SITE_ICONS.appleTouch.href), await draw(squareSvg, side(SITE_ICONS.appleTouch)));
  const icoSizes = SITE_ICONS.ico.sizes.split(' ').map((size) => Number(size.split('x')[0]));
  const icoImages = [];
  for (const size of icoSizes) icoImages.push(await draw(svg, size));
  fs.writeFileSync(path.join(publicDir, SITE_ICONS.ico.href), await pngToIco(icoImages));
  for (const icon of [...SITE_ICONS.app, SITE_ICONS.appleTouch, SITE_ICONS.ico]) console.log(path.join('shell/public', icon.href));
} finally {
  await browser.close();
}
