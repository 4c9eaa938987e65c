const path = require('node:path');
const { createWebpackConfig } = require('@agency/shared/build/create-webpack-config.js');
const { DEV_PORTS } = require('@agency/shared/build/dev-ports.js');

module.exports = createWebpackConfig({
  appDir: __dirname,
  name: 'agency_shell',
  port: DEV_PORTS.shell,
  isHost: true,
  template: path.join(__dirname, 'public/index.html'),
  runtimePlugins: [path.join(__dirname, 'src/features/federation/remote-fallback-plugin.ts')],
});
