// One webpack + Module Federation configuration for the shell and every remote. Who each app is
// (federation name, dev port, exposes) comes from the registry, so an app's webpack.config.js is a
// single call.
const path = require('node:path');
const webpack = require('webpack');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const CompressionPlugin = require('compression-webpack-plugin');
const CssMinimizerPlugin = require('css-minimizer-webpack-plugin');
const { createSharedConfig } = require('./shared-dependencies');
const { moduleRules } = require('./module-rules');
const { hasServerEntry, serverBundleConfig } = require('./server-bundle-config');
const { SERVER_DIR } = require('./server-files');
const { PageAssetsPlugin } = require('./page-assets-plugin');
const { API, HOST, remoteInFolder, devRemotesDocument } = require('./apps');

/** Skips the runtime's warn-only semver check of singletons (the release gate checks ranges). */
const SINGLETON_SHARE_PLUGIN = path.join(__dirname, '../src/federation/singleton-share-plugin.ts');
/** Every app: a shared library whose fetch failed is fetched again when next asked for. */
const RETRY_FAILED_SHARE_PLUGIN = path.join(__dirname, '../src/federation/retry-failed-share-plugin.ts');

const API_URL = process.env.API_URL ?? `http://127.0.0.1:${process.env.API_PORT ?? API.devPort}`;

/** `{ Hero: './src/…' }` → Module Federation's `{ './Hero': './src/…' }`. */
function federationExposes(exposes) {
  return Object.fromEntries(Object.entries(exposes).map(([name, file]) => [`./${name}`, file]));
}

/**
 * Text assets worth compressing. Anchored on the last extension, so source maps (`main.js.map`)
 * never get `.map.br`/`.map.gz` copies: they are not for visitors, and never served.
 */
const COMPRESSIBLE = /\.(js|css|html|json|svg)$/;

/**
 * Brotli and gzip copies of every text asset beside it (`main.js.br`, `main.js.gz`), made once at
 * build with the strongest settings; the server picks one by Accept-Encoding. A copy that would
 * not be smaller is not written.
 */
function precompression() {
  const zlib = require('node:zlib');
  return [
    new CompressionPlugin({
      test: COMPRESSIBLE,
      algorithm: 'brotliCompress',
      filename: '[path][base].br',
      compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY } },
      minRatio: 0.9,
    }),
    new CompressionPlugin({
      test: COMPRESSIBLE,
      algorithm: 'gzip',
      filename: '[path][base].gz',
      compressionOptions: { level: 9 },
      minRatio: 0.9,
    }),
  ];
}

/**
 * The plugin that hands the shell's federation runtime to the remotes is CommonJS, so it would pull
 * in the CommonJS build of the runtime beside the ES module build the rest of the runtime uses:
 * two copies of it in the shell's entry (about 200 KB unminified). Both resolve to the ES build.
 */
function oneFederationRuntimeBuild() {
  const runtimeTools = path.dirname(require.resolve('@module-federation/runtime-tools/package.json'));
  const { exports } = require('@module-federation/runtime-tools/package.json');
  return { '@module-federation/runtime-tools/runtime-core$': path.join(runtimeTools, exports['./runtime-core'].import.default) };
}

/**
 * Files whose every function runs while the page loads: the shell's entry (the federation
 * runtime), its bootstrap chunk and each remote's entry. V8's explicit compile hint makes Chromium
 * compile all of their functions eagerly on a background thread while the file streams in,
 * instead of one by one on the main thread the first time each is called (main.js's start-up task
 * about halves). Browsers without the hint read an ordinary comment.
 */
const CALLED_ON_LOAD = /^(?:main|bootstrap)\.[0-9a-f]+\.js$|^remoteEntry\.js$/;

function compileHints() {
  return new webpack.BannerPlugin({
    banner: '//# allFunctionsCalledOnLoad',
    raw: true,
    test: CALLED_ON_LOAD,
    // After minification, which would drop the comment; before source maps and compression.
    stage: webpack.Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_SIZE + 1,
  });
}

/** The files of `publicDir` (but the page template) copied as they are into the build, under their own names. */
function publicFiles(publicDir, template) {
  const CopyPlugin = require('copy-webpack-plugin');
  const ignore = template ? [`**/${path.basename(template)}`] : [];
  return new CopyPlugin({ patterns: [{ from: publicDir, globOptions: { ignore } }] });
}

/** The webpack config of the remote that lives in `appDir` (its __dirname). */
function createRemoteWebpackConfig(appDir) {
  const remote = remoteInFolder(appDir);
  if (!remote) throw new Error(`${appDir} is not a remote in shared/src/federation/registry.json`);
  return createWebpackConfig({
    appDir,
    name: remote.federationName,
    title: remote.title,
    port: remote.devPort,
    exposes: federationExposes(remote.exposes),
  });
}

/**
 * The shell's webpack config.
 * @param {string} appDir the shell's folder (its __dirname)
 * @param {{ template: string, publicDir?: string, runtimePlugins?: string[] }} options
 */
function createHostWebpackConfig(appDir, options) {
  return createWebpackConfig({ appDir, name: HOST.federationName, port: HOST.devPort, isHost: true, ...options });
}

/**
 * @param {object} app
 * @param {string} app.appDir           the app's folder
 * @param {string} app.name             Module Federation name, also output.uniqueName
 * @param {number} app.port             dev-server port
 * @param {Record<string,string>} [app.exposes]  remote modules (remotes only)
 * @param {boolean} [app.isHost]        the shell
 * @param {string[]} [app.runtimePlugins]
 * @param {string} [app.template]       HTML template (defaults to the standalone page)
 * @param {string} [app.publicDir]      files served as they are at the site root (icons), copied into dist
 * @param {string} [app.title]
 */
function createWebpackConfig(app) {
  const packageJson = require(path.join(app.appDir, 'package.json'));
  return (_env, argv) => {
    const production = argv.mode !== 'development';
    const browser = browserConfig(app, packageJson, production);
    // The server bundle of the app's first-screen pieces ships in the same dist (and release).
    return production && hasServerEntry(app.appDir) ? [browser, serverBundleConfig(app)] : browser;
  };
}

function browserConfig(app, packageJson, production) {
  return {
    mode: production ? 'production' : 'development',
    context: app.appDir,
    entry: './src/index.ts',
    // Production: source maps (with the original source) beside the bundles in dist, for error
    // reporting, but hidden: no sourceMappingURL in the bundles, and the server never serves
    // `*.map` (api/src/site/pages/static-files.ts). Development keeps fast eval source maps.
    devtool: production ? 'hidden-source-map' : 'eval-cheap-module-source-map',
    output: {
      path: path.join(app.appDir, 'dist'),
      // The shell is served from the site root; remotes load their chunks relative to their own
      // manifest wherever they are deployed.
      publicPath: app.isHost ? '/' : 'auto',
      filename: production ? '[name].[contenthash:10].js' : '[name].js',
      chunkFilename: production ? '[name].[contenthash:10].js' : '[name].js',
      assetModuleFilename: 'assets/[name].[contenthash:10][ext]',
      uniqueName: app.name,
      // The server bundle is written beside the browser build by a parallel compiler.
      clean: { keep: (file) => file.startsWith(`${SERVER_DIR}/`) },
    },
    resolve: { extensions: ['.ts', '.tsx', '.js'], alias: app.isHost ? oneFederationRuntimeBuild() : {} },
    module: { rules: moduleRules(app, production) },
    // Webpack minifies only JavaScript by itself; the stylesheets are minified too ('...' keeps
    // the JavaScript minifier), which matters most for the lower sections' styles the server
    // inlines into a page's HTML.
    optimization: { minimizer: ['...', new CssMinimizerPlugin()] },
    plugins: [
      new ModuleFederationPlugin({
        name: app.name,
        filename: 'remoteEntry.js',
        exposes: app.exposes ?? {},
        remotes: {},
        shared: createSharedConfig(packageJson),
        shareStrategy: 'loaded-first',
        runtimePlugins: [
          ...(production ? [SINGLETON_SHARE_PLUGIN] : []),
          RETRY_FAILED_SHARE_PLUGIN,
          ...(app.runtimePlugins ?? []),
        ],
        manifest: true,
        dts: false,
        // One federation runtime on the page: the shell provides it, production remotes use it
        // instead of bundling their own copy (about 25 KiB gzip each). A remote's development
        // build keeps its own, so its standalone page still runs without the shell. The provided
        // runtime only ever runs in a browser: `target: 'web'` drops its Node loaders (5 KB of main.js).
        experiments: app.isHost
          ? { provideExternalRuntime: true, optimization: { target: 'web' } }
          : production
            ? { externalRuntime: true }
            : {},
      }),
      new MiniCssExtractPlugin({
        filename: production ? '[name].[contenthash:10].css' : '[name].css',
        chunkFilename: production ? '[name].[contenthash:10].css' : '[name].css',
      }),
      new HtmlWebpackPlugin({
        template: app.template ?? path.join(__dirname, 'standalone.html'),
        title: app.title ?? app.name,
        scriptLoading: 'defer',
      }),
      ...(app.isHost ? [new PageAssetsPlugin()] : []),
      ...(app.publicDir ? [publicFiles(app.publicDir, app.template)] : []),
      ...(production ? [compileHints(), ...precompression()] : []),
    ],
    performance: { hints: false },
    devServer: {
      port: app.port,
      // DEV_HOST=0.0.0.0 inside a container (docker-compose.dev.yml); this machine only otherwise.
      host: process.env.DEV_HOST ?? '127.0.0.1',
      // A remote's live-reload socket is opened from the shell's origin (another port).
      allowedHosts: 'all',
      // The socket's port as browsers reach this server: in a container, the one compose publishes
      // (DEV_PUBLIC_PORT), which may differ from the port the server listens on inside.
      client: { webSocketURL: { port: Number(process.env.DEV_PUBLIC_PORT || app.port) } },
      historyApiFallback: true,
      hot: false,
      liveReload: true,
      headers: { 'Access-Control-Allow-Origin': '*' },
      proxy: [{ context: ['/api', '/media'], target: API_URL }],
      setupMiddlewares: (middlewares) => {
        if (app.isHost) {
          middlewares.unshift({
            name: 'remotes-json',
            path: '/remotes.json',
            middleware: (_req, res) => res.json(devRemotesDocument(process.env)),
          });
        }
        return middlewares;
      },
    },
  };
}

module.exports = { createRemoteWebpackConfig, createHostWebpackConfig };
