import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The browser apps import @agency/shared (and its api-client and router subpaths) from source.
 * The contract types come from TypeBox schemas; this walks what those entry points import at run
 * time (type-only imports erased, as the apps' build erases them) and checks TypeBox is not in it.
 */

const BROWSER_ENTRIES = ['index.ts', 'api/api-client.ts', 'routing/router.ts'].map((file) => path.join(__dirname, file));

function runtimeImports(file: string): string[] {
  const output = ts.transpileModule(fs.readFileSync(file, 'utf8'), {
    fileName: file,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, jsx: ts.JsxEmit.ReactJSX },
  }).outputText;
  return [...output.matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1] ?? '');
}

function resolveLocal(from: string, specifier: string): string {
  const base = path.resolve(path.dirname(from), specifier);
  const candidate = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find(
    (file) => fs.existsSync(file) && fs.statSync(file).isFile(),
  );
  if (!candidate) throw new Error(`cannot resolve ${specifier} from ${from}`);
  return candidate;
}

/** Every package a file needs at run time, through its local imports. */
function packagesReachedFrom(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop() ?? '';
    if (seen.has(file)) continue;
    seen.add(file);
    if (!/\.tsx?$/.test(file)) continue;
    for (const specifier of runtimeImports(file)) {
      if (specifier.startsWith('.')) pending.push(resolveLocal(file, specifier));
      else packages.add(specifier);
    }
  }
  return packages;
}

describe('browser entry points of @agency/shared', () => {
  it.each(BROWSER_ENTRIES)('%s does not load TypeBox at run time', (entry) => {
    const packages = [...packagesReachedFrom(entry)];
    expect(packages.filter((name) => name.startsWith('@sinclair/typebox'))).toEqual([]);
  });

  it('the contracts do load it (the walk sees through to them)', () => {
    expect([...packagesReachedFrom(path.join(__dirname, 'contracts/index.ts'))]).toContain('@sinclair/typebox');
  });
});
