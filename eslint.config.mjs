import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { createRequire } from 'node:module';

const { BROWSER_APP_FOLDERS } = createRequire(import.meta.url)('./shared/webpack/apps.js');

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '**/coverage/**', 'data/**', '.tmp/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  // Remotes share only @agency/shared and what the shell passes them: never each other's code.
  ...BROWSER_APP_FOLDERS.map((app) => ({
    files: [`${app}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: BROWSER_APP_FOLDERS.flatMap((folder) => [`**/${folder}/**`, `@agency/${folder}`, `@agency/${folder}/*`]),
              message: 'Apps share code only through @agency/shared.',
            },
            {
              group: ['react-router', 'react-router-dom', 'react-router/*', 'react-router-dom/*'],
              message: 'Import routing from @agency/shared/router: it is the one shared router instance.',
            },
            {
              group: ['@agency/shared/contracts', '@agency/shared/contracts/*', '@sinclair/typebox', '@sinclair/typebox/*'],
              message: 'Browser apps take the contract types from @agency/shared; the TypeBox schemas are for the API and would ship its runtime to visitors.',
            },
          ],
        },
      ],
    },
  })),
  {
    files: ['**/*.{js,cjs}'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { sourceType: 'module', globals: { ...globals.node } },
  },
);
