import path from 'node:path';
import { remoteOfModule } from './contract';

// The shell's half of the contract is plain type-checking: these run the compiler on the shell
// with one file changed in memory, as `npm run typecheck -w shell` would see it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { typeCheckProject, editedFile, formatDiagnostics } = require('../../typecheck/check-exposes.js');

const ROOT = path.resolve(__dirname, '../../..');
const SHELL_TSCONFIG = path.join(ROOT, 'shell/tsconfig.json');
const REGISTRY = path.join(__dirname, 'registry.json');
const CONTRACT = path.join(__dirname, 'contract.ts');

function shellErrors(files: Record<string, string> = {}): string {
  return formatDiagnostics(typeCheckProject({ tsconfig: SHELL_TSCONFIG, files }));
}

describe('the federation contract, as the shell compiles against it', () => {
  jest.setTimeout(60_000);

  it('compiles as the tree stands', () => {
    expect(shellErrors()).toBe('');
  });

  it('fails in the shell where it names a module the blog renamed in the registry', () => {
    const output = shellErrors(editedFile(REGISTRY, '"BlogTeaser":', '"BlogTeasers":'));
    expect(output).toMatch(/HomePage\.tsx.*"blog\/BlogTeaser"/);
    expect(output).toMatch(/contract\.ts/);
  });

  it('fails in the shell where it passes a prop whose type the contract changed', () => {
    const output = shellErrors(editedFile(CONTRACT, 'postId: string;', 'postId: number;'));
    expect(output).toMatch(/BlogPostRoute\.tsx.*Type 'string' is not assignable to type 'number'/);
  });
});

describe('remoteOfModule', () => {
  it('names the remote that exposes a module', () => {
    expect(remoteOfModule('home/Hero')).toBe('home');
    expect(remoteOfModule('forms/JobApplicationForm')).toBe('forms');
  });
});
