import * as ts from 'typescript';
import { SchemaSourceError } from '../cli-errors';

/** A `@Toolset` class found in the program. */
export interface FoundToolset {
  className: string;
  declaration: ts.ClassDeclaration;
  sourceFile: ts.SourceFile;
  /** `@Toolset({ prefix })` when written as a string literal (for `--print`). */
  prefix?: string;
  tools: FoundTool[];
}

/** A `@Tool` method of a found toolset. */
export interface FoundTool {
  methodName: string;
  declaration: ts.MethodDeclaration;
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
  for (const sourceFile of program.getSourceFiles()) {
    if (sourceFile.isDeclarationFile || program.isSourceFileFromExternalLibrary(sourceFile)) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isClassDeclaration(node)) {
        const toolsetDecorator = findDecorator(checker, node, 'Toolset');
        if (toolsetDecorator) found.push(readToolset(checker, node, sourceFile, toolsetDecorator));
      }
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);
  }
  return found;
}

function readToolset(checker: ts.TypeChecker, declaration: ts.ClassDeclaration, sourceFile: ts.SourceFile, decorator: ts.Decorator): FoundToolset {
  if (!declaration.name) {
    throw new SchemaSourceError(`${location(sourceFile, declaration)}: a @Toolset class needs a name; the manifest is keyed by class name.`);
  }
  const tools: FoundTool[] = [];
  for (const member of declaration.members) {
    if (!ts.isMethodDeclaration(member)) continue;
    const toolDecorator = findDecorator(checker, member, 'Tool');
    if (!toolDecorator) continue;
    if (!ts.isIdentifier(member.name)) {
      throw new SchemaSourceError(
        `${location(sourceFile, member)}: @Tool methods of ${declaration.name.text} need a plain identifier name (no computed or private names).`,
      );
    }
    const options = decoratorOptions(toolDecorator);
    tools.push({
      methodName: member.name.text,
      declaration: member,
      explicitName: options.name,
      explicitDescription: options.description,
    });
  }
  return { className: declaration.name.text, declaration, sourceFile, prefix: decoratorOptions(decorator).prefix, tools };
}

/** The decorator of `node` that resolves to `name` (directly, through an import alias, or `ns.name`). */
export function findDecorator(checker: ts.TypeChecker, node: ts.HasDecorators, name: string): ts.Decorator | undefined {
  return ts.getDecorators(node)?.find((decorator) => {
    const callee = ts.isCallExpression(decorator.expression) ? decorator.expression.expression : decorator.expression;
    return resolvedName(checker, callee) === name;
  });
}

function resolvedName(checker: ts.TypeChecker, expression: ts.Expression): string | undefined {
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
