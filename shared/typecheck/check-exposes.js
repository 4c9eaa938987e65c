#!/usr/bin/env node
// The remotes' half of the federation contract: every exposed module's default export must be a
// component taking the props the contract in shared/src/federation/contract.ts names for its id.
// The shell's half is plain tsc: it names modules by typed id and passes the contract's props.
// Run in a remote's folder it checks that remote; run in the shell's it checks every remote the
// shell composes, so `npm run typecheck -w shell` fails when any remote breaks the contract.
const path = require('node:path');
const ts = require('typescript');
const { HOST, REMOTES } = require('../webpack/apps.js');

const CHECK_FILE = '__federation-contract-check__.ts';

/** Source of a file that assigns each exposed default export to its contract type. */
function contractCheckSource(remotes, fromDir, appRoot) {
  const lines = ["import type { ExposedComponent } from '@agency/shared';"];
  let index = 0;
  for (const remote of remotes) {
    for (const [name, file] of Object.entries(remote.exposes)) {
      const target = path.join(appRoot(remote), file).replace(/\.tsx?$/, '');
      let specifier = path.relative(fromDir, target).split(path.sep).join('/');
      if (!specifier.startsWith('.')) specifier = `./${specifier}`;
      lines.push(
        `// ${remote.id}/${name}: ${file} in ${remote.folder}`,
        `import Exposed${index} from '${specifier}';`,
        `export const exposed${index}: ExposedComponent<'${remote.id}/${name}'> = Exposed${index};`,
      );
      index += 1;
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Source files read from disk, by path and parse options (createProgram's host). */
const parsedFiles = new Map();

/** `tsconfig` with what it extends, as `tsc -p` reads it; an unreadable one throws. */
function parseTsconfig(tsconfig) {
  return ts.getParsedCommandLineOfConfigFile(tsconfig, {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
}

/**
 * A program over `rootNames` (default: every file of `tsconfig`) with the compiler options of
 * `tsconfig`. `files` replaces file contents in memory (absolute path → text), which is how tests
 * try a renamed expose or a changed prop without touching the tree.
 */
function createProgram({ tsconfig, files = {}, rootNames }) {
  const parsed = parseTsconfig(tsconfig);
  const overrides = new Map(Object.entries(files).map(([file, text]) => [path.resolve(file), text]));
  const host = ts.createCompilerHost(parsed.options, true);
  const original = { readFile: host.readFile, fileExists: host.fileExists, getSourceFile: host.getSourceFile };
  host.readFile = (file) => overrides.get(path.resolve(file)) ?? original.readFile.call(host, file);
  host.fileExists = (file) => overrides.has(path.resolve(file)) || original.fileExists.call(host, file);
  host.getSourceFile = (file, language, ...rest) => {
    const text = overrides.get(path.resolve(file));
    if (text !== undefined) return ts.createSourceFile(file, text, language);
    // Parsed once per process for every program made here: the tests make several of the same
    // projects, each with the same libraries and types (lib.dom alone is a second to parse).
    const key = `${path.resolve(file)}\0${JSON.stringify(language)}`;
    if (!parsedFiles.has(key)) parsedFiles.set(key, original.getSourceFile.call(host, file, language, ...rest));
    return parsedFiles.get(key);
  };
  return ts.createProgram({ rootNames: rootNames ? rootNames(parsed.fileNames) : parsed.fileNames, options: parsed.options, host });
}

/** Every diagnostic of the project `tsconfig`, as `tsc -p` reports them. */
function typeCheckProject({ tsconfig, files }) {
  return [...ts.getPreEmitDiagnostics(createProgram({ tsconfig, files }))];
}

/** Type-checks the exposed modules of `remotes` against the contract, with `tsconfig`'s options. */
function checkExposes({ tsconfig, remotes = REMOTES, files = {} }) {
  const fromDir = path.dirname(tsconfig);
  const checkFile = path.join(fromDir, CHECK_FILE);
  const appRoot = (remote) => path.join(fromDir, '..', remote.folder);
  const program = createProgram({
    tsconfig,
    files: { ...files, [checkFile]: contractCheckSource(remotes, fromDir, appRoot) },
    // Ambient declarations (CSS modules, assets) come from the app's tsconfig; sources from the imports.
    rootNames: (fileNames) => [...fileNames.filter((file) => file.endsWith('.d.ts')), checkFile],
  });
  return [...ts.getPreEmitDiagnostics(program, program.getSourceFile(checkFile))];
}

/** A `files` entry: `file` as it is on disk with one piece of text (which must be there) replaced. */
function editedFile(file, from, to) {
  const text = ts.sys.readFile(file) ?? '';
  if (!text.includes(from)) throw new Error(`${file} does not contain ${from}`);
  return { [file]: text.replace(from, to) };
}

function formatDiagnostics(diagnostics) {
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (file) => file,
    getCurrentDirectory: () => process.cwd(),
    getNewLine: () => '\n',
  });
}

/**
 * Set by the test loop's static checks, which run the shell's check too: there a remote whose
 * check would be the shell's for that one remote leaves it to the shell's.
 */
const CHECKED_BY_SHELL = 'FEDERATION_CONTRACT_CHECKED_BY_SHELL';

/** What a check with `tsconfig` depends on besides the sources: compiler options and ambient declarations. */
function checkSetup(tsconfig) {
  const parsed = parseTsconfig(tsconfig);
  // Where the tsconfig is differs by app and changes nothing a check sees.
  const options = { ...parsed.options, configFilePath: undefined };
  const declarations = parsed.fileNames.filter((file) => file.endsWith('.d.ts')).sort();
  return JSON.stringify({ options, declarations });
}

/** Whether a check with `shellTsconfig` covers one with `remoteTsconfig` exactly: the same options and declarations. */
function shellCheckCovers(remoteTsconfig, shellTsconfig) {
  return checkSetup(remoteTsconfig) === checkSetup(shellTsconfig);
}

function main() {
  const appDir = process.cwd();
  const folder = path.basename(appDir);
  const remotes = folder === HOST.folder ? REMOTES : REMOTES.filter((remote) => remote.folder === folder);
  if (remotes.length === 0) throw new Error(`${folder} is neither the shell nor a remote in the registry`);
  const tsconfig = path.join(appDir, 'tsconfig.json');
  if (folder !== HOST.folder && process.env[CHECKED_BY_SHELL] && shellCheckCovers(tsconfig, path.join(appDir, '..', HOST.folder, 'tsconfig.json'))) return;
  const diagnostics = checkExposes({ tsconfig, remotes });
  if (diagnostics.length > 0) {
    process.stderr.write(`Federation contract broken (exposed modules vs shared/src/federation/contract.ts):\n${formatDiagnostics(diagnostics)}`);
    process.exit(1);
  }
}

if (require.main === module) main();

module.exports = { checkExposes, shellCheckCovers, typeCheckProject, editedFile, formatDiagnostics };
