// `npm run dev`: the API and every app with live reload. The shell (http://localhost:8080)
// finds the remotes' dev servers through its /remotes.json; /api is proxied to the API.
import concurrently from 'concurrently';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { API, HOST, REMOTES } = require('../shared/webpack/apps.js');

// The site's address is the shell's dev server (the staff console's sign-in checks it), unless set.
const apiEnv = `PORT=${API.devPort} HOST=127.0.0.1 SITE_URL=\${SITE_URL:-http://localhost:${HOST.devPort}}`;
const { result } = concurrently(
  [
    // tsx reads @agency/shared from its sources (api/tsconfig.json paths): no build, no stale copy.
    { name: 'api', command: `${apiEnv} npm run dev -w ${API.folder}` },
    { name: HOST.id, command: `npm run dev -w ${HOST.folder}` },
    ...REMOTES.map((remote) => ({ name: remote.id, command: `npm run dev -w ${remote.folder}` })),
  ],
  { prefixColors: ['yellow', 'blue', 'green', 'magenta', 'cyan', 'white', 'gray'], killOthersOn: ['failure'] },
);
result.catch(() => process.exit(1));
