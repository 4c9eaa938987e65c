// Loaders for TypeScript, CSS and assets, the same for an app's browser build and its server
// bundle, so both give a component the same class names.
const path = require('node:path');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');

/**
 * @param {{ appDir: string, name: string }} app
 * @param {boolean} production
 * @param {{ server?: boolean }} [options] server: CSS gives class names only (the browser build ships the CSS)
 */
function moduleRules(app, production, { server = false } = {}) {
  const cssModules = {
    auto: true,
    namedExport: false,
    exportLocalsConvention: 'as-is',
    exportOnlyLocals: server,
    // The app name in every class keeps one remote's styles from matching another's.
    localIdentName: production ? `${app.name}-[hash:base64:6]` : `${app.name}-[name]__[local]`,
  };
  return [
    {
      test: /\.tsx?$/,
      exclude: /node_modules/,
      // Type-checking is `npm run typecheck`; the build only transpiles. TypeScript's own source
      // map lets the browser build's maps point at the .ts/.tsx lines, not at its JavaScript output.
      use: {
        loader: 'ts-loader',
        options: { transpileOnly: true, configFile: path.join(app.appDir, 'tsconfig.json'), compilerOptions: { sourceMap: !server } },
      },
    },
    {
      test: /\.css$/,
      use: [...(server ? [] : [MiniCssExtractPlugin.loader]), { loader: 'css-loader', options: { modules: cssModules } }],
    },
    // The server bundle refers to the browser build's files and writes none of its own.
    { test: /\.(png|jpe?g|webp|svg|woff2?)$/, type: 'asset/resource', ...(server ? { generator: { emit: false } } : {}) },
  ];
}

module.exports = { moduleRules };
