// Name, dev port and exposes of this remote come from shared/src/federation/registry.json.
const { createRemoteWebpackConfig } = require('@agency/shared/webpack/create-webpack-config.js');

module.exports = createRemoteWebpackConfig(__dirname);
