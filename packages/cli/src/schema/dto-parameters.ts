import * as ts from 'typescript';

/**
 * The class name when a parameter's type is a class-validator DTO (a class with at least one property
 * decorator from `class-validator`, its own or inherited). Such a parameter's schema comes from the
 * class's rules at startup, never from the manifest, so the manifest leaves it out.
 */
export function dtoClassName(checker: ts.TypeChecker, parameter: ts.ParameterDeclaration): string | undefined {
  const type = parameter.type ? checker.getTypeFromTypeNode(parameter.type) : checker.getTypeAtLocation(parameter);
  const symbol = type.getSymbol();
  if (!symbol || !(symbol.flags & ts.SymbolFlags.Class)) return undefined;
  for (const property of checker.getPropertiesOfType(type)) {
    for (const declaration of property.declarations ?? []) {
      if (!ts.canHaveDecorators(declaration)) continue;
      if (ts.getDecorators(declaration)?.some((decorator) => comesFromClassValidator(checker, decorator))) return symbol.name;
    }
  }
  return undefined;
}

/** True when the decorator is class-validator's (resolved through imports, or named by its import when its types are missing). */
export function comesFromClassValidator(checker: ts.TypeChecker, decorator: ts.Decorator): boolean {
  const callee = ts.isCallExpression(decorator.expression) ? decorator.expression.expression : decorator.expression;
  const symbol = checker.getSymbolAtLocation(callee);
  if (!symbol) return false;
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const files = (target.declarations ?? []).map((d) => d.getSourceFile().fileName);
  if (files.some((file) => /[\\/]class-validator[\\/]/.test(file))) return true;
  // Without class-validator's types the import still names its module.
  const declaration = symbol.declarations?.[0];
  const importDeclaration = declaration && findAncestor(declaration, ts.isImportDeclaration);
  return importDeclaration !== undefined && ts.isStringLiteral(importDeclaration.moduleSpecifier) && importDeclaration.moduleSpecifier.text === 'class-validator';
}

function findAncestor<T extends ts.Node>(node: ts.Node, test: (node: ts.Node) => node is T): T | undefined {
  for (let current: ts.Node | undefined = node; current; current = current.parent) if (test(current)) return current;
  return undefined;
}
