// Writes `page-assets.json` beside the shell's build: the files the page's first render needs
// beyond the entry script (the bootstrap chunk's scripts and styles, the fonts), so the server can
// link the styles and preload the rest in the HTML it sends instead of waiting for scripts to ask.
const { PAGE_ASSETS_FILE } = require('./server-files');
/** The async chunk that renders the page; index.ts names it with a webpackChunkName comment. */
const BOOTSTRAP_CHUNK = 'bootstrap';
/** The first screen's text needs the Cyrillic and the basic Latin (digits, brand names) files. */
const PRELOADED_FONT = /(?:^|\/)[a-z-]+-(?:cyrillic|latin)-wght-normal\.[0-9a-f]+\.woff2$/;

class PageAssetsPlugin {
  apply(compiler) {
    const { RawSource } = compiler.webpack.sources;
    compiler.hooks.thisCompilation.tap('PageAssetsPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'PageAssetsPlugin', stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_REPORT },
        () => {
          const group = compilation.namedChunkGroups.get(BOOTSTRAP_CHUNK);
          if (!group) throw new Error(`The shell has no "${BOOTSTRAP_CHUNK}" chunk: name its dynamic import`);
          const files = group.getFiles();
          const assets = {
            scripts: files.filter((file) => file.endsWith('.js')),
            styles: files.filter((file) => file.endsWith('.css')),
            fonts: Object.keys(compilation.assets).filter((file) => PRELOADED_FONT.test(file)),
          };
          compilation.emitAsset(PAGE_ASSETS_FILE, new RawSource(`${JSON.stringify(assets, null, 2)}\n`));
        },
      );
    });
  }
}

module.exports = { PageAssetsPlugin };
