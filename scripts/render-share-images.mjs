// Link previews (Open Graph, Telegram, Facebook) need raster pictures: renders every 1200×630 SVG
// under content/blog/images (article covers) and api/public/media/og to a JPEG twin beside it with
// the local Chromium, which draws text as browsers do (the content sync would otherwise render a
// missing twin itself). Run after adding or changing an SVG: `node scripts/render-share-images.mjs`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const folders = ['content/blog/images', 'api/public/media/og'].map((folder) => path.join(root, folder));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
  for (const folder of folders) {
    for (const name of fs.readdirSync(folder).filter((file) => file.endsWith('.svg'))) {
      const svg = fs.readFileSync(path.join(folder, name), 'utf8');
      await page.setContent(`<style>html,body{margin:0}svg{display:block;width:1200px;height:630px}</style>${svg}`);
      const target = path.join(folder, name.replace(/\.svg$/, '.jpg'));
      await page.screenshot({ path: target, type: 'jpeg', quality: 85, clip: { x: 0, y: 0, width: 1200, height: 630 } });
      console.log(path.relative(root, target));
    }
  }
} finally {
  await browser.close();
}
