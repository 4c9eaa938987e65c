import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Configuration, WebpackPluginInstance } from 'webpack';

// Source maps carry the original source: production builds keep them beside the bundles for
// error reporting, with no sourceMappingURL pointing browsers (or anyone) at them, and no
// compressed copies the server could send.

/* eslint-disable @typescript-eslint/no-require-imports */
const webpack = require('webpack') as typeof import('webpack');
const CompressionPlugin = require('compression-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const { BROWSER_APP_FOLDERS } = require('./apps.js') as { BROWSER_APP_FOLDERS: string[] };
/* eslint-enable @typescript-eslint/no-require-imports */

const ROOT = path.resolve(__dirname, '../..');

/** The browser build's config of an app, as its webpack.config.js gives it for `--mode <mode>`. */
function browserConfig(folder: string, mode: 'production' | 'development'): Configuration {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const factory = require(path.join(ROOT, folder, 'webpack.config.js')) as (env: object, argv: { mode: string }) => Configuration | Configuration[];
  const configs = factory({}, { mode });
  return Array.isArray(configs) ? (configs[0] as Configuration) : configs;
}

const pluginsOf = (config: Configuration, type: new (...args: never[]) => WebpackPluginInstance) =>
  (config.plugins ?? []).filter((plugin): plugin is WebpackPluginInstance => plugin instanceof type);

describe('createWebpackConfig', () => {
  it.each(BROWSER_APP_FOLDERS)('gives %s hidden source maps in production, eval source maps in development', (folder) => {
    expect(browserConfig(folder, 'production').devtool).toBe('hidden-source-map');
    expect(browserConfig(folder, 'development').devtool).toBe('eval-cheap-module-source-map');
  });

  it('never compresses source maps', () => {
    const compression = pluginsOf(browserConfig('mfe-blog', 'production'), CompressionPlugin) as unknown as { options: { test: RegExp } }[];
    expect(compression).toHaveLength(2);
    for (const { options } of compression) {
      expect(['main.0123abcdef.js', 'main.0123abcdef.css', 'mf-manifest.json'].every((name) => options.test.test(name))).toBe(true);
      expect(['main.0123abcdef.js.map', 'main.0123abcdef.css.map'].some((name) => options.test.test(name))).toBe(false);
    }
  });

  describe('a production build with its source-map and compression settings', () => {
    let dir: string;
    let files: string[];
    const read = (file: string) => fs.readFileSync(path.join(dir, 'dist', file), 'utf8');

    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-webpack-maps-'));
      // Big and repetitive enough that every file, maps included, would compress well.
      const words = Array.from({ length: 400 }, (_, index) => `'original source line ${index}'`).join(',\n');
      fs.writeFileSync(path.join(dir, 'index.js'), `import './style.css';\nconsole.log([${words}]);\nimport('./lazy.js');\n`);
      fs.writeFileSync(path.join(dir, 'lazy.js'), `export const lazy = [${words}].join(' ');\n`);
      fs.writeFileSync(path.join(dir, 'style.css'), Array.from({ length: 200 }, (_, index) => `.c${index} { color: #123456; }`).join('\n'));
      const production = browserConfig('mfe-blog', 'production');
      const cssRule = (production.module?.rules ?? []).find((rule) => rule && typeof rule === 'object' && String(rule.test) === String(/\.css$/));
      const config: Configuration = {
        mode: 'production',
        context: dir,
        entry: './index.js',
        devtool: production.devtool,
        output: { path: path.join(dir, 'dist'), filename: '[name].[contenthash:10].js', chunkFilename: '[name].[contenthash:10].js' },
        module: { rules: [cssRule] },
        resolveLoader: { modules: [path.join(ROOT, 'node_modules')] },
        plugins: [...pluginsOf(production, MiniCssExtractPlugin), ...pluginsOf(production, CompressionPlugin)],
        performance: { hints: false },
      };
      await new Promise<void>((resolve, reject) => {
        const compiler = webpack(config);
        compiler.run((error, stats) => {
          compiler.close(() => {
            if (error) reject(error);
            else if (stats?.hasErrors()) reject(new Error(stats.toString('errors-only')));
            else resolve();
          });
        });
      });
      files = fs.readdirSync(path.join(dir, 'dist'));
    }, 60_000);

    afterAll(() => {
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('writes a source map beside every script and stylesheet', () => {
      const bundles = files.filter((file) => /\.(js|css)$/.test(file));
      expect(bundles.filter((file) => file.endsWith('.js')).length).toBeGreaterThanOrEqual(2);
      expect(bundles.some((file) => file.endsWith('.css'))).toBe(true);
      for (const bundle of bundles) {
        expect(files).toContain(`${bundle}.map`);
        expect(JSON.parse(read(`${bundle}.map`)).sourcesContent.join('')).toContain(bundle.endsWith('.css') ? '.c199' : 'original source line');
      }
    });

    it('leaves no sourceMappingURL in any bundle', () => {
      const bundles = files.filter((name) => /\.(js|css|html)$/.test(name));
      expect(bundles.length).toBeGreaterThanOrEqual(3);
      expect(bundles.filter((file) => read(file).includes('sourceMappingURL'))).toEqual([]);
    });

    it('compresses the bundles but not the maps', () => {
      expect(files.filter((file) => /\.js\.(br|gz)$/.test(file)).length).toBeGreaterThanOrEqual(4);
      expect(files.filter((file) => /\.map\.(br|gz)$/.test(file))).toEqual([]);
    });
  });
});
