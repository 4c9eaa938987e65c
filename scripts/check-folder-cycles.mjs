// Fails when folders of a source tree depend on each other in a cycle, at any depth. Within each
// folder, the nodes are its subfolders and its own files taken together: a subfolder may use its
// parent's files, or the parent's files may use the subfolder, never both.
// Usage: node scripts/check-folder-cycles.mjs [tree …]   (default: every tree that must have none)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TREES = ['api/src', 'shared/src', 'shell/src'];
const OWN_FILES = '(own files)';
const SOURCE = /\.tsx?$/;

/** The file a relative import names, in the forms the sources use (`./x`, `./x.js`, `./folder`). */
function resolveImport(known, from, specifier) {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier)).replace(/\.js$/, '');
  return [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find((candidate) => known.has(candidate));
}

/** The folder cycles of one tree; prints each with an import that makes it, and returns how many. */
function checkTree(tree) {
  const root = path.join(ROOT, tree);
  const files = fs
    .readdirSync(root, { recursive: true })
    .map((file) => String(file).split(path.sep).join('/'))
    .filter((file) => SOURCE.test(file) && !file.split('/').includes('node_modules'));
  const known = new Set(files);

  /** Per folder: which of its nodes depend on which, with the imports that say so. */
  const graphs = new Map();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(path.join(root, file), 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolveImport(known, file, fileName);
      if (!target) continue;
      const a = file.split('/');
      const b = target.split('/');
      let depth = 0;
      while (depth < a.length - 1 && depth < b.length - 1 && a[depth] === b[depth]) depth += 1;
      const from = depth < a.length - 1 ? a[depth] : OWN_FILES;
      const to = depth < b.length - 1 ? b[depth] : OWN_FILES;
      if (from === to) continue;
      const folder = a.slice(0, depth).join('/');
      if (!graphs.has(folder)) graphs.set(folder, new Map());
      const edges = graphs.get(folder);
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from).has(to)) edges.get(from).set(to, `${file} -> ${target}`);
    }
  }

  let found = 0;
  for (const [folder, edges] of graphs) {
    for (const component of cycles(edges)) {
      found += 1;
      console.error(`Folder cycle in ${[tree, folder].filter(Boolean).join('/')}: ${component.join(' <-> ')}`);
      for (const from of component) {
        for (const to of component) {
          const example = edges.get(from)?.get(to);
          if (example) console.error(`  ${from} -> ${to}: ${example}`);
        }
      }
    }
  }
  console.log(`${tree}: ${files.length} files, ${found} folder cycle${found === 1 ? '' : 's'}`);
  return found;
}

/** Strongly connected components with more than one node (Tarjan). */
function cycles(edges) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)));
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component);
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

const trees = process.argv.length > 2 ? process.argv.slice(2) : TREES;
const total = trees.reduce((sum, tree) => sum + checkTree(tree), 0);
if (total > 0) process.exit(1);

