import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import fs from 'node:fs';
import { createRequire } from 'node:module';

const { BROWSER_APP_FOLDERS } = createRequire(import.meta.url)('./shared/webpack/apps.js');

// The rooms of api/src and what each may import of it, one way only: the platform whole, any
// other entry through its index only. Only app.ts composes the products; server.ts starts app.ts.
const API_SRC = new URL('./api/src/', import.meta.url);
const API_FENCES = {
  platform: [],
  delivery: ['platform'],
  site: ['platform', 'delivery'],
  staff: ['platform', 'site/content', 'site/leads'],
};
const API_TOP = ['app', 'server'];
const fenceMessage = (room) =>
  API_FENCES[room].length === 0
    ? `api/src/${room} imports no product.`
    : `api/src/${room} may use ${API_FENCES[room].map((entry) => (entry === 'platform' ? 'the platform' : `api/src/${entry}/index.ts`)).join(', ')}, nothing else of api/src.`;

/** How many folders deep the files of api/src/<room> go (0: directly in it). */
function folderDepth(folder) {
  const below = fs.readdirSync(folder, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  return below.length === 0 ? 0 : 1 + Math.max(...below.map((entry) => folderDepth(new URL(`${entry.name}/`, folder))));
}

/**
 * The imports a file `depth` folders below api/src/<room> must not make. Such a file reaches
 * api/src through depth + 1 `../`, so the rule reads specifiers, not resolved paths. The platform,
 * where allowed, may be used anywhere; any other allowed entry (`delivery`, `site/content`) only
 * through its index.
 */
function fenceRegex(room, depth) {
  const up = `(?:\\.\\./){${depth + 1}}`;
  const mayUse = API_FENCES[room];
  const whole = mayUse.filter((entry) => entry === 'platform');
  const entryOnly = mayUse.filter((entry) => entry !== 'platform');
  const allowed = [...whole.map((entry) => `${entry}(?:/.*)?`), ...entryOnly.map((entry) => `${entry}(?:/index(?:\\.js)?)?`)];
  return `^${up}(?!(?:${allowed.join('|') || '(?!)'})$)(?:${[...Object.keys(API_FENCES), ...API_TOP].filter((entry) => entry !== room).join('|')})(?:/.*|\\.js)?$`;
}

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
  ...Object.keys(API_FENCES).flatMap((room) =>
    Array.from({ length: folderDepth(new URL(`${room}/`, API_SRC)) + 1 }, (_, depth) => ({
      files: [`api/src/${room}/${'*/'.repeat(depth)}*.ts`],
      rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: fenceRegex(room, depth), message: fenceMessage(room) }] }] },
    })),
  ),
  {
    files: ['api/src/app.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: `^\\./(?:${Object.keys(API_FENCES).filter((room) => room !== 'platform').join('|')})/.+$`, message: 'app.ts composes the products through their entries (index.ts) only.' }] },
      ],
    },
  },
  {
    files: ['api/src/server.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: `^\\./(?:${Object.keys(API_FENCES).filter((room) => room !== 'platform').join('|')})(?:/.*)?$`, message: 'server.ts starts app.ts, which alone composes the products.' }] },
      ],
    },
  },
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
