const { createWebpackConfig } = require('@agency/shared/build/create-webpack-config.js');
const { DEV_PORTS } = require('@agency/shared/build/dev-ports.js');

module.exports = createWebpackConfig({
  appDir: __dirname,
  name: 'agency_blog',
  title: 'Хвиля — блог (розробка)',
  port: DEV_PORTS.blog,
  exposes: {
    './BlogTeaser': './src/features/blog-teaser/BlogTeaser.tsx',
    './BlogPostPage': './src/features/blog-post/BlogPostPage.tsx',
  },
});
