import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { checkExposes, editedFile, formatDiagnostics, shellCheckCovers } = require('./check-exposes.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { REMOTES } = require('../webpack/apps.js');

const ROOT = path.resolve(__dirname, '../..');
const SHELL_TSCONFIG = path.join(ROOT, 'shell/tsconfig.json');
const BLOG_TSCONFIG = path.join(ROOT, 'mfe-blog/tsconfig.json');
const POST_PAGE = path.join(ROOT, 'mfe-blog/src/features/blog-post/BlogPostPage.tsx');
const HERO = path.join(ROOT, 'mfe-home/src/features/hero/Hero.tsx');

const report = (diagnostics: unknown[]): string => formatDiagnostics(diagnostics);

describe('checkExposes (the remotes keep the federation contract)', () => {
  jest.setTimeout(60_000);

  it('passes for every remote as the tree stands, from the shell and from a remote', () => {
    expect(report(checkExposes({ tsconfig: SHELL_TSCONFIG }))).toBe('');
    const blog = REMOTES.filter((remote: { id: string }) => remote.id === 'blog');
    expect(report(checkExposes({ tsconfig: BLOG_TSCONFIG, remotes: blog }))).toBe('');
  });

  it('fails when a remote changes the type of a prop the shell passes', () => {
    const files = editedFile(POST_PAGE, '{ postId }: BlogPostPageProps', '{ postId }: { postId: number }');
    const output = report(checkExposes({ tsconfig: SHELL_TSCONFIG, files }));
    expect(output).toMatch(/blog\/BlogPostPage/);
    expect(output).toMatch(/not assignable/);
  });

  it('fails when an exposed component starts to require a prop the contract does not give', () => {
    const files = editedFile(HERO, 'export default function Hero()', 'export default function Hero({ title }: { title: string })');
    const output = report(checkExposes({ tsconfig: SHELL_TSCONFIG, files }));
    expect(output).toMatch(/home\/Hero/);
  });

  it('fails when an expose points to a file that is not there', () => {
    const remotes = REMOTES.map((remote: { id: string; exposes: Record<string, string> }) =>
      remote.id === 'blog' ? { ...remote, exposes: { ...remote.exposes, BlogTeaser: './src/features/blog-teaser/Gone.tsx' } } : remote,
    );
    expect(report(checkExposes({ tsconfig: SHELL_TSCONFIG, remotes }))).toMatch(/Cannot find module '..\/mfe-blog\/src\/features\/blog-teaser\/Gone'/);
  });
});

describe('shellCheckCovers (when a remote may leave its check to the shell\'s)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-check-exposes-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A remote's tsconfig outside the tree: the blog's sources, with `compilerOptions` and `moreFiles` added. */
  function blogTsconfig(name: string, compilerOptions: Record<string, unknown>, moreFiles: string[] = []): string {
    const file = path.join(dir, name);
    const include = [path.join(ROOT, 'mfe-blog/src'), path.join(ROOT, 'shared/types'), ...moreFiles];
    fs.writeFileSync(file, JSON.stringify({ extends: path.join(ROOT, 'tsconfig.json'), compilerOptions, include }));
    return file;
  }

  it('covers every remote as the tree stands', () => {
    for (const remote of REMOTES as { folder: string }[]) {
      expect([remote.folder, shellCheckCovers(path.join(ROOT, remote.folder, 'tsconfig.json'), SHELL_TSCONFIG)]).toEqual([remote.folder, true]);
    }
  });

  it('does not cover a remote compiled with other options, or with other ambient declarations', () => {
    expect(shellCheckCovers(blogTsconfig('same.json', {}), SHELL_TSCONFIG)).toBe(true);
    expect(shellCheckCovers(blogTsconfig('stricter.json', { exactOptionalPropertyTypes: true }), SHELL_TSCONFIG)).toBe(false);
    const declarations = path.join(dir, 'more.d.ts');
    fs.writeFileSync(declarations, 'declare module "*.yaml";\n');
    expect(shellCheckCovers(blogTsconfig('more.json', {}, [declarations]), SHELL_TSCONFIG)).toBe(false);
  });
});
