const path = require('node:path');
const { createHostWebpackConfig } = require('@agency/shared/webpack/create-webpack-config.js');

module.exports = createHostWebpackConfig(__dirname, {
  template: path.join(__dirname, 'public/index.html'),
  publicDir: path.join(__dirname, 'public'),
  runtimePlugins: [
    path.join(__dirname, 'src/frame/federation/remote-fallback-plugin.ts'),
    path.join(__dirname, 'src/frame/federation/server-preloaded-assets-plugin.ts'),
    path.join(__dirname, 'src/frame/federation/task-per-shared-module-plugin.ts'),
  ],
});
