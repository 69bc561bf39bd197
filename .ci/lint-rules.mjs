// Toolsmith's own lint rules (used by eslint.config.mjs): the module boundaries no published rule checks.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** The directory holding the nearest package.json above `file`. */
function packageDirOf(file) {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
  }
  return undefined;
}

function resolveRelative(fromFile, specifier) {
  const base = resolve(dirname(fromFile), specifier);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

const isSourceFile = (file) =>
  file.endsWith('.ts') && !file.endsWith('.d.ts') && !/\.test\.ts$/.test(file) && !file.includes(`${sep}__fixtures__${sep}`) && !file.includes(`${sep}fuzz${sep}`);

/** Entry points (`index.ts`) are the package's facade: nothing inside imports them, so they join no folder. */
const isEntry = (file) => file.endsWith(`${sep}index.ts`);

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}

/** Relative imports and re-exports of a file that exist at run time (type-only ones are left out). */
function valueImports(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const specifiers = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.isTypeOnly) continue;
      const named = clause?.namedBindings;
      const allTypes = clause && !clause.name && named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
      if (allTypes) continue;
      specifiers.push(statement.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly) {
      const named = statement.exportClause;
      if (named && ts.isNamedExports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly)) continue;
      specifiers.push(statement.moduleSpecifier.text);
    }
  }
  return specifiers.filter((s) => s.startsWith('.'));
}

/** Strongly connected components of a graph given as Map<node, Set<node>> (Tarjan). */
function stronglyConnected(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const componentOf = new Map();
  let counter = 0;
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), index.get(next)));
    }
    if (low.get(node) === index.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      for (const m of component) componentOf.set(m, component);
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return componentOf;
}

const folderGraphs = new Map();

/** The folder graph of one package's `src` (value imports between its folders) and its cycles. */
function folderGraph(srcDir) {
  let cached = folderGraphs.get(srcDir);
  if (cached) return cached;
  const graph = new Map();
  for (const file of walk(srcDir)) {
    if (!isSourceFile(file) || isEntry(file)) continue;
    const from = relative(srcDir, dirname(file)) || '.';
    if (!graph.has(from)) graph.set(from, new Set());
    for (const specifier of valueImports(file)) {
      const target = resolveRelative(file, specifier);
      if (!target || !target.startsWith(srcDir + sep) || isEntry(target)) continue;
      const to = relative(srcDir, dirname(target)) || '.';
      if (to !== from) graph.get(from).add(to);
    }
  }
  cached = { componentOf: stronglyConnected(graph) };
  folderGraphs.set(srcDir, cached);
  return cached;
}

function isTypeOnlyNode(node) {
  if (node.importKind === 'type' || node.exportKind === 'type') return true;
  const specifiers = node.specifiers ?? [];
  return specifiers.length > 0 && specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type');
}

const noFolderCycle = {
  meta: { type: 'problem', docs: { description: 'Folders of a package must not import each other in a cycle.' }, schema: [] },
  create(context) {
    const file = context.filename;
    const packageDir = packageDirOf(file);
    if (!packageDir || !isSourceFile(file) || isEntry(file)) return {};
    const srcDir = join(packageDir, 'src');
    if (!file.startsWith(srcDir + sep)) return {};
    const from = relative(srcDir, dirname(file)) || '.';
    const check = (node) => {
      const specifier = node.source?.value;
      if (typeof specifier !== 'string' || !specifier.startsWith('.') || isTypeOnlyNode(node)) return;
      const target = resolveRelative(file, specifier);
      if (!target || !target.startsWith(srcDir + sep) || isEntry(target)) return;
      const to = relative(srcDir, dirname(target)) || '.';
      const component = folderGraph(srcDir).componentOf.get(from);
      if (to === from || !component || component.length < 2 || !component.includes(to)) return;
      context.report({
        node,
        message: `Folder cycle in ${relative(process.cwd(), srcDir)}: ${[...component].sort().join(', ')} import each other; '${from}' → '${to}' closes it. Move the shared piece down a layer or import a type only.`,
      });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};

const noCrossPackageRelative = {
  meta: { type: 'problem', docs: { description: 'Another package is imported by its name, never by a relative path.' }, schema: [] },
  create(context) {
    const file = context.filename;
    const packageDir = packageDirOf(file);
    if (!packageDir) return {};
    const check = (node) => {
      const specifier = node.source?.value;
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const target = resolve(dirname(file), specifier);
      if (target === packageDir || target.startsWith(packageDir + sep)) return;
      context.report({ node, message: `'${specifier}' reaches into another package; import it by its package name and entry point.` });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

export const toolsmithRules = { 'no-folder-cycle': noFolderCycle, 'no-cross-package-relative': noCrossPackageRelative };
