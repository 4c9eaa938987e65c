// The server bundle of an app: its `src/server.tsx` compiled for Node into one CommonJS file
// (`dist/server/render.js`, React included), which the API loads from the app's current release
// to render that app's pieces of a page. See shared/src/page/server-rendering.ts for its interface.
const fs = require('node:fs');
const path = require('node:path');
const webpack = require('webpack');
const { moduleRules } = require('./module-rules');
const { SERVER_ASSET_BASE, SERVER_BUNDLE_FILE } = require('./server-files');

const SERVER_ENTRY = './src/server.tsx';

function hasServerEntry(appDir) {
  return fs.existsSync(path.join(appDir, SERVER_ENTRY));
}

/** @param {{ appDir: string, name: string }} app */
function serverBundleConfig(app) {
  return {
    name: `${app.name}-server`,
    mode: 'production',
    context: app.appDir,
    target: 'node20',
    entry: SERVER_ENTRY,
    devtool: false,
    output: {
      path: path.join(app.appDir, 'dist'),
      filename: SERVER_BUNDLE_FILE,
      library: { type: 'commonjs2' },
      // Asset URLs in server markup match the browser build's: the shell's from the site's root, a
      // remote's from where its release is served, which only the API knows when it renders.
      assetModuleFilename: 'assets/[name].[contenthash:10][ext]',
      publicPath: app.isHost ? '/' : SERVER_ASSET_BASE,
    },
    resolve: {
      extensions: ['.ts', '.tsx', '.js'],
      // Node's export condition would pick shared's compiled dist (built for the API); the
      // browser build compiles the sources, and so does this one.
      alias: { '@agency/shared$': path.resolve(__dirname, '../src/index.ts') },
    },
    module: { rules: moduleRules(app, true, { server: true }) },
    // Readable stack traces on the server matter more than size.
    optimization: { minimize: false },
    plugins: [new webpack.optimize.LimitChunkCountPlugin({ maxChunks: 1 })],
    performance: { hints: false },
  };
}

module.exports = { hasServerEntry, serverBundleConfig };
