import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import fs from 'node:fs';
import { createRequire } from 'node:module';

const { BROWSER_APP_FOLDERS } = createRequire(import.meta.url)('./shared/webpack/apps.js');

// The API's delivery module (api/src/delivery) is entered through its index only, and uses no
// folder of api/src but these shared ones: nothing of the site (content, leads, pages, …).
const DELIVERY_MAY_USE = ['config', 'db', 'http', 'lib'];
const API_SOURCE_ENTRIES = fs.readdirSync(new URL('./api/src', import.meta.url)).map((entry) => entry.replace(/\.ts$/, ''));
const DELIVERY_MUST_NOT_USE = API_SOURCE_ENTRIES.filter((entry) => entry !== 'delivery' && !DELIVERY_MAY_USE.includes(entry));
const DELIVERY_MAX_DEPTH = 4;

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
    files: ['api/src/**/*.ts'],
    ignores: ['api/src/delivery/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/delivery/**'], message: 'Use delivery through its entry (api/src/delivery/index.ts) only.' }] },
      ],
    },
  },
  // A file n folders below api/src/delivery reaches the rest of api/src through n + 1 `../`.
  ...Array.from({ length: DELIVERY_MAX_DEPTH }, (_, depth) => ({
    files: [`api/src/delivery/${'*/'.repeat(depth)}*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: DELIVERY_MUST_NOT_USE.flatMap((entry) => [`${'../'.repeat(depth + 1)}${entry}`, `${'../'.repeat(depth + 1)}${entry}/**`]),
              message: `Delivery uses no code of the site: only ${DELIVERY_MAY_USE.join(', ')} of api/src.`,
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
