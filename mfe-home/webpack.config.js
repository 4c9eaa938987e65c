const { createWebpackConfig } = require('@agency/shared/build/create-webpack-config.js');
const { DEV_PORTS } = require('@agency/shared/build/dev-ports.js');

module.exports = createWebpackConfig({
  appDir: __dirname,
  name: 'agency_home',
  title: 'Хвиля — головна (розробка)',
  port: DEV_PORTS.home,
  exposes: {
    './Hero': './src/features/hero/Hero.tsx',
    './About': './src/features/about/About.tsx',
    './Services': './src/features/services/Services.tsx',
    './Reasons': './src/features/reasons/Reasons.tsx',
    './Team': './src/features/team/Team.tsx',
    './Vacancies': './src/features/vacancies/Vacancies.tsx',
    './ContactDetails': './src/features/contact-details/ContactDetails.tsx',
  },
});
