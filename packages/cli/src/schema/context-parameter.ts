import * as ts from 'typescript';

// Where core declares its ToolContext class: `src/tools/tool-context.ts` in the repository,
// `dist/tools/tool-context.d.ts` in the published package.
const CONTEXT_FILE = /[\\/]tools[\\/]tool-context\.(?:d\.)?ts$/;

/**
 * True when `type` is core's `ToolContext` class, however the parameter names it: directly, through an
 * import alias, a namespace import (`core.ToolContext`), a re-export or a chain of type aliases (the
 * checker resolves all of them to the class's instance type). A class of its own that is only named
 * `ToolContext` is not the context.
 */
export function isToolContextType(type: ts.Type): boolean {
  const symbol = type.getSymbol();
  return (
    symbol !== undefined &&
    symbol.name === 'ToolContext' &&
    (symbol.declarations ?? []).some((declaration) => ts.isClassDeclaration(declaration) && CONTEXT_FILE.test(declaration.getSourceFile().fileName))
  );
}

/**
 * True when `type` has core's `ToolContext` somewhere inside without being it: a member of a union or an
 * intersection, a property, an element, a type argument (`Readonly<ToolContext>`, `Promise<ToolContext>`)
 * or a base class. Such a parameter would be filled from the model's arguments with something that
 * claims to be a context, so the manifest generator refuses it.
 */
export function containsToolContext(checker: ts.TypeChecker, type: ts.Type): boolean {
  const seen = new Set<ts.Type>();
  const visit = (current: ts.Type, top: boolean): boolean => {
    if (seen.has(current)) return false;
    seen.add(current);
    if (!top && isToolContextType(current)) return true;
    if ((current.aliasTypeArguments ?? []).some((argument) => visit(argument, false))) return true;
    if (current.isUnionOrIntersection()) return current.types.some((member) => visit(member, false));
    if (!(current.flags & ts.TypeFlags.Object)) return false;
    const reference = current as ts.TypeReference;
    if ((reference.objectFlags & ts.ObjectFlags.Reference) !== 0 && checker.getTypeArguments(reference).some((argument) => visit(argument, false))) return true;
    if (current.isClassOrInterface() && (checker.getBaseTypes(current) ?? []).some((base) => visit(base, false))) return true;
    for (const info of checker.getIndexInfosOfType(current)) if (visit(info.type, false)) return true;
    return checker.getPropertiesOfType(current).some((property) => {
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      return declaration !== undefined && !declaration.getSourceFile().hasNoDefaultLib && visit(checker.getTypeOfSymbolAtLocation(property, declaration), false);
    });
  };
  return visit(type, true);
}
