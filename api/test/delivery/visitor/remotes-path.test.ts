import fs from 'node:fs';
import path from 'node:path';
import { distDir } from '../../../src/delivery/releases/apps';
import { setUpReleaseSuite } from '../../helpers/releases';

// The server's remote routes follow the path @agency/shared names (REMOTES_PATH, remoteBasePath),
// not a prefix of their own: moved to /mfe/ here, the remotes' files and 404s move with it.
jest.mock('@agency/shared', () => {
  const actual = jest.requireActual<typeof import('@agency/shared')>('@agency/shared');
  return { ...actual, REMOTES_PATH: '/mfe/', remoteBasePath: (name: string) => `/mfe/${name}/` };
});

const suite = setUpReleaseSuite();

describe('the remotes path', () => {
  it('serves the remotes under the path shared names', async () => {
    const entry = await suite.ctx.request('GET', '/mfe/blog/remoteEntry.js');
    expect([entry.statusCode, entry.body]).toEqual([200, 'var agency_blog; // dist']);
    expect(entry.headers['access-control-allow-origin']).toBe('*');
    const document = (await suite.ctx.request('GET', '/remotes.json')).json<{ remotes: Record<string, { entry: string }> }>();
    expect(document.remotes.blog?.entry).toBe('/mfe/blog/mf-manifest.json');
  });

  it('answers a missing remote file there with a 404, not with the shell page', async () => {
    expect(fs.existsSync(path.join(distDir(suite.fixture.staticRoot, 'shell'), 'index.html'))).toBe(true);
    const missing = await suite.ctx.request('GET', '/mfe/blog/missing.0123abcd45.js', { headers: { accept: 'text/html' } });
    expect([missing.statusCode, missing.headers['cache-control']]).toEqual([404, 'no-store']);
    // A client route still gets the shell.
    expect((await suite.ctx.request('GET', '/blog/1', { headers: { accept: 'text/html' } })).body).toContain('data-build="dist"');
  });
});
