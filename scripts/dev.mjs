// `npm run dev`: the API and all four apps with live reload. The shell (http://localhost:8080)
// finds the remotes' dev servers through its /remotes.json; /api is proxied to the API.
import concurrently from 'concurrently';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { DEV_PORTS } = require('../shared/build/dev-ports.js');

const apiEnv = `PORT=${DEV_PORTS.api} HOST=127.0.0.1`;
const { result } = concurrently(
  [
    // tsx reads @agency/shared from its sources (api/tsconfig.json paths): no build, no stale copy.
    { name: 'api', command: `${apiEnv} npm run dev -w api` },
    { name: 'shell', command: 'npm run dev -w shell' },
    { name: 'home', command: 'npm run dev -w mfe-home' },
    { name: 'blog', command: 'npm run dev -w mfe-blog' },
    { name: 'forms', command: 'npm run dev -w mfe-forms' },
  ],
  { prefixColors: ['yellow', 'blue', 'green', 'magenta', 'cyan'], killOthersOn: ['failure'] },
);
result.catch(() => process.exit(1));
