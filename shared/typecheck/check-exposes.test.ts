import path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { checkExposes, editedFile, formatDiagnostics } = require('./check-exposes.js');
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
