const { createWebpackConfig } = require('@agency/shared/build/create-webpack-config.js');
const { DEV_PORTS } = require('@agency/shared/build/dev-ports.js');

module.exports = createWebpackConfig({
  appDir: __dirname,
  name: 'agency_forms',
  title: 'Хвиля — форми (розробка)',
  port: DEV_PORTS.forms,
  exposes: {
    './JobApplicationForm': './src/features/job-application/JobApplicationForm.tsx',
    './ContactForm': './src/features/contact/ContactForm.tsx',
  },
});
