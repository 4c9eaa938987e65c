import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Fake builds with real server bundles (CommonJS, as the build writes them): the shell's frame
// names one slot and the home remote renders it, or the bundles fail as a broken release would.
// The hero's page is at `/`, `/privacy` and every `/hero/…` address (one per test, so no test is
// served a page another kept); `/hero/with-lower` has a lower section too (loaded when near);
// `/blog…` shows the address it was rendered from; `/hero/with-form` holds the contact form.
export const SHELL_TEMPLATE =
  '<!doctype html><html lang=uk><head><meta charset=utf-8><title>dev</title><script defer src=/main.3f2a9c1b7d.js></script></head>' +
  '<body><div id=root></div></body></html>';

export const SHELL_BUNDLE = `
// With AGENCY_TEST_COUNT_RENDERS set, every call stamps its markup with a number no other call of
// this bundle gives: two answers with the same bytes come from one render.
let calls = 0;
const stamp = () => (process.env.AGENCY_TEST_COUNT_RENDERS ? '<!-- render ' + (calls += 1) + ' -->' : '');
exports.renderPage = (url, slots) => {
  if (url === '/boom') throw new Error('broken frame');
  if (url.startsWith('/blog')) {
    return { html: '<p>Адреса: ' + url + '</p>' + stamp(), status: 200, slots: [], meta: { title: 'Луна', description: 'Опис', path: url, type: 'website' } };
  }
  const hero = slots['home/Hero'];
  const slot = hero ? '<div data-remote-module="home/Hero" data-remote-release="' + hero.release + '">' + hero.html + '</div>' : '<div class="placeholder"></div>';
  const known = url === '/' || url === '/boom' || url === '/privacy' || url.startsWith('/hero/');
  const lower = url === '/hero/with-lower';
  const reasons = slots['home/Reasons'];
  const lowerSlot = lower && reasons ? '<div data-remote-module="home/Reasons">' + reasons.html + '</div>' : '';
  const form = url === '/hero/with-form' ? '<form id="contact-form" data-form-token="contact" method="post"><input name="name"></form>' : '';
  return {
    html: '<header>Хвиля</header><main>' + (known ? slot + lowerSlot + form : '<h1>Сторінку не знайдено</h1>') + '</main>' + stamp(),
    meta: { title: known ? 'Головна <Хвиля>' : 'Нема', description: 'Опис', path: url, type: 'website', noindex: !known },
    status: known ? 200 : 404,
    // The hero is told its address: each page's hero is rendered (and kept) apart.
    slots: known ? [{ id: 'home/Hero', props: { path: url } }, ...(lower ? [{ id: 'home/Reasons', props: {}, whenVisible: true }] : [])] : [],
  };
};`;

export const HOME_BUNDLE = `
const heroData = () => process.env.AGENCY_TEST_HERO_DATA || '/services';
// With AGENCY_TEST_COUNT_RENDERS set, each slot's markup is stamped with its render's number too.
let calls = 0;
const stamp = () => (process.env.AGENCY_TEST_COUNT_RENDERS ? '<!-- slot render ' + (calls += 1) + ' -->' : '');
exports.dataFor = (module) => (module === 'Hero' ? [heroData()] : module === 'Reasons' ? [] : undefined);
exports.renderSlot = (module, props, data) => {
  if (module === 'Reasons') return { html: '<h2>Чому ми</h2>' + stamp() };
  if (process.env.AGENCY_TEST_BREAK_HERO) throw new Error('broken slot');
  const answer = data[heroData()];
  // As the blog's post page does: an answer other than 200 is a page that does not exist.
  if (answer.status !== 200) return { html: '<h1>Не знайдено</h1>', status: 404 };
  // A list (services) is counted; one post (AGENCY_TEST_HERO_DATA=/blog/<id>) shows its title.
  const heading = Array.isArray(answer.body) ? 'Послуг: ' + answer.body.length : answer.body.title;
  return { html: '<link rel="preload" as="image" href="/media/hero.svg"/><h1>' + heading + '</h1>' + stamp() };
};`;

export const HOME_MANIFEST = {
  metaData: { remoteEntry: { name: 'remoteEntry.js', path: '' } },
  exposes: [
    { name: 'Hero', assets: { js: { sync: ['hero.0a1b2c3d4e.js'] }, css: { sync: ['hero.0a1b2c3d4e.css'] } } },
    { name: 'Reasons', assets: { js: { sync: ['reasons.0a1b2c3d4e.js'] }, css: { sync: ['reasons.0a1b2c3d4e.css'] } } },
  ],
};

/** The lower section's stylesheet, which the page carries inline. */
export const REASONS_CSS = '.reasons{color:#0b3d91}';

export function writeBuilds(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-pages-'));
  const files: Record<string, string> = {
    'shell/dist/index.html': SHELL_TEMPLATE,
    'shell/dist/server/render.js': SHELL_BUNDLE,
    'shell/dist/page-assets.json': JSON.stringify({ scripts: ['bootstrap.0a1b2c3d4e.js'], styles: ['bootstrap.0a1b2c3d4e.css'], fonts: [] }),
    'mfe-home/dist/mf-manifest.json': JSON.stringify(HOME_MANIFEST),
    'mfe-home/dist/server/render.js': HOME_BUNDLE,
    'mfe-home/dist/reasons.0a1b2c3d4e.css': REASONS_CSS,
  };
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), content);
  }
  return root;
}
