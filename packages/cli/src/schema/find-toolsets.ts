import * as ts from 'typescript';
import { SchemaSourceError } from '../cli-errors';

/** A `@Toolset` class found in the program. */
export interface FoundToolset {
  className: string;
  declaration: ts.ClassDeclaration;
  sourceFile: ts.SourceFile;
  /** `@Toolset({ prefix })` when written as a string literal (for `--print`). */
  prefix?: string;
  /** Own `@Tool` methods first, then inherited ones not overridden (as the runtime scanner walks them). */
  tools: FoundTool[];
  /** Files of base classes that contribute inherited `@Tool` methods. */
  baseSourceFiles: ts.SourceFile[];
}

/** A `@Tool` method of a found toolset. */
export interface FoundTool {
  methodName: string;
  declaration: ts.MethodDeclaration;
  /** The file of the class that declares the method (a base class's, for an inherited one). */
  sourceFile: ts.SourceFile;
  /** `@Tool({ name })` / `@Tool({ description })` when written as string literals (for `--print`). */
  explicitName?: string;
  explicitDescription?: string;
}

/**
 * Finds every `@Toolset` class and its `@Tool` methods in the program's own sources (declaration files
 * and `node_modules` are skipped). Decorators are recognised by the name they resolve to, so
 * `import { Tool as T }` works.
 */
export function findToolsets(program: ts.Program): FoundToolset[] {
  const checker = program.getTypeChecker();
  const found: FoundToolset[] = [];
  visitProjectSources(program, (node, sourceFile) => {
    if (!ts.isClassDeclaration(node)) return;
    const toolsetDecorator = findDecorator(checker, node, 'Toolset');
    if (toolsetDecorator) found.push(readToolset(checker, node, sourceFile, toolsetDecorator));
  });
  return found;
}

/** Calls `visit` on every node of the program's own sources (declaration files and `node_modules` left out). */
export function visitProjectSources(program: ts.Program, visit: (node: ts.Node, sourceFile: ts.SourceFile) => void): void {
  for (const sourceFile of program.getSourceFiles()) {
    if (sourceFile.isDeclarationFile || program.isSourceFileFromExternalLibrary(sourceFile)) continue;
    const walk = (node: ts.Node): void => {
      visit(node, sourceFile);
      ts.forEachChild(node, walk);
    };
    walk(sourceFile);
  }
}

function readToolset(checker: ts.TypeChecker, declaration: ts.ClassDeclaration, sourceFile: ts.SourceFile, decorator: ts.Decorator): FoundToolset {
  if (!declaration.name) {
    throw new SchemaSourceError(`${location(sourceFile, declaration)}: a @Toolset class needs a name; the manifest is keyed by class name.`);
  }
  const tools: FoundTool[] = [];
  const baseSourceFiles: ts.SourceFile[] = [];
  const seen = new Set<string>();
  for (let current: ts.ClassLikeDeclaration | undefined = declaration; current; current = baseClassOf(checker, current)) {
    const file = current.getSourceFile();
    const before = tools.length;
    for (const member of current.members) {
      if (!ts.isMethodDeclaration(member) || !member.body) continue;
      const name = ts.isIdentifier(member.name) ? member.name.text : undefined;
      // A subclass's override hides the base method, decorated or not, as at runtime.
      if (name !== undefined && seen.has(name)) continue;
      if (name !== undefined) seen.add(name);
      const toolDecorator = findDecorator(checker, member, 'Tool');
      if (!toolDecorator) continue;
      if (name === undefined) {
        throw new SchemaSourceError(
          `${location(file, member)}: @Tool methods of ${declaration.name.text} need a plain identifier name (no computed or private names).`,
        );
      }
      const options = decoratorOptions(toolDecorator);
      tools.push({ methodName: name, declaration: member, sourceFile: file, explicitName: options.name, explicitDescription: options.description });
    }
    if (current !== declaration && tools.length > before && file !== sourceFile && !baseSourceFiles.includes(file)) {
      baseSourceFiles.push(file);
    }
  }
  return { className: declaration.name.text, declaration, sourceFile, prefix: decoratorOptions(decorator).prefix, tools, baseSourceFiles };
}

/** The declaration of the class `node` extends, when it is a class in TypeScript source. */
export function baseClassOf(checker: ts.TypeChecker, node: ts.ClassLikeDeclaration): ts.ClassLikeDeclaration | undefined {
  const heritage = node.heritageClauses?.find((clause) => clause.token === ts.SyntaxKind.ExtendsKeyword)?.types[0];
  if (!heritage) return undefined;
  let symbol = checker.getSymbolAtLocation(heritage.expression);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const base = symbol?.declarations?.find(ts.isClassLike);
  return base && !base.getSourceFile().isDeclarationFile ? base : undefined;
}

/** The decorator of `node` that resolves to `name` (directly, through an import alias, or `ns.name`). */
export function findDecorator(checker: ts.TypeChecker, node: ts.HasDecorators, name: string): ts.Decorator | undefined {
  return ts.getDecorators(node)?.find((decorator) => {
    const callee = ts.isCallExpression(decorator.expression) ? decorator.expression.expression : decorator.expression;
    return resolvedName(checker, callee) === name;
  });
}

/** The name `expression` resolves to through imports and aliases (`import { Tool as T }` gives `Tool`). */
export function resolvedName(checker: ts.TypeChecker, expression: ts.Expression): string | undefined {
  const symbol = checker.getSymbolAtLocation(expression);
  if (symbol) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    // An import that does not resolve (no types installed) still names the decorator it meant.
    if (target.name !== 'unknown') return target.name;
  }
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text;
  return undefined;
}

/** String-literal properties of a decorator's first argument, e.g. `@Tool({ name: 'x' })`. */
function decoratorOptions(decorator: ts.Decorator): Record<string, string> {
  const options: Record<string, string> = {};
  const call = decorator.expression;
  if (!ts.isCallExpression(call)) return options;
  const first = call.arguments[0];
  if (!first || !ts.isObjectLiteralExpression(first)) return options;
  for (const property of first.properties) {
    if (ts.isPropertyAssignment(property) && ts.isIdentifier(property.name) && ts.isStringLiteralLike(property.initializer)) {
      options[property.name.text] = property.initializer.text;
    }
  }
  return options;
}

/** `file.ts:line:column` of a node, for messages. */
export function location(sourceFile: ts.SourceFile, node: ts.Node): string {
  const { line, character } = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
  return `${sourceFile.fileName}:${line + 1}:${character + 1}`;
}
