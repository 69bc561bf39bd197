import * as ts from 'typescript';

// Library types a JSON value never is: the generator would write their fields (`size`, `__@toStringTag@…`) as an object.
const MAP = 'a Map: JSON has no Maps; take a Record<string, T> or an array of pairs';
const SET = 'a Set: JSON has no Sets; take an array';
const PROMISE = 'a Promise: JSON has no Promises; take the value itself';
const FUNCTION = 'a function: JSON has no functions';
const NON_JSON_LIBRARY_TYPES: Record<string, string> = {
  Map: MAP,
  ReadonlyMap: MAP,
  WeakMap: MAP,
  Set: SET,
  ReadonlySet: SET,
  WeakSet: SET,
  RegExp: 'a RegExp: JSON has no RegExps; take the pattern as a string',
  Promise: PROMISE,
  PromiseLike: PROMISE,
  Function: FUNCTION,
};

/**
 * Where a parameter's type holds something JSON cannot carry: a function (a method of an interface or
 * class included), a `Map`, `Set`, `WeakMap`, `WeakSet`, `RegExp` or `Promise`, or a property keyed by a
 * symbol, at any depth (objects, arrays, tuples, unions, index signatures). The answer names the path
 * from the parameter (`options.onDone is a function`, `pair[1] is a Map`); `undefined` when there is none.
 */
export function nonJsonPart(checker: ts.TypeChecker, type: ts.Type, name: string): string | undefined {
  const seen = new Set<ts.Type>();
  const fromLibrary = (symbol: ts.Symbol) => {
    const declaration = symbol.declarations?.[0];
    return declaration !== undefined && declaration.getSourceFile().hasNoDefaultLib;
  };
  const visit = (current: ts.Type, path: string): string | undefined => {
    if (seen.has(current)) return undefined;
    seen.add(current);
    if (current.isUnionOrIntersection()) return first(current.types, (member) => visit(member, path));
    if (!(current.flags & ts.TypeFlags.Object)) return undefined;
    const object = current as ts.ObjectType;
    if (checker.isArrayType(current)) return visit(checker.getTypeArguments(object as ts.TypeReference)[0], `${path}[]`);
    if (checker.isTupleType(current)) return first(checker.getTypeArguments(object as ts.TypeReference), (element, index) => visit(element, `${path}[${index}]`));
    if (current.getCallSignatures().length > 0 || current.getConstructSignatures().length > 0) return `${path} is ${FUNCTION}`;
    const symbol = current.getSymbol();
    // A mapped type (Record, Partial) is declared in the library, its members are the project's.
    if (symbol && fromLibrary(symbol) && !(object.objectFlags & ts.ObjectFlags.Mapped)) {
      const kind = NON_JSON_LIBRARY_TYPES[symbol.name];
      if (kind) return `${path} is ${kind}`;
      // Date and the other library types are the generator's to judge; only their type arguments are looked at.
      if (object.objectFlags & ts.ObjectFlags.Reference) return first(checker.getTypeArguments(object as ts.TypeReference), (argument) => visit(argument, path));
      return undefined;
    }
    for (const info of checker.getIndexInfosOfType(current)) {
      const found = visit(info.type, `${path}[${checker.typeToString(info.keyType)}]`);
      if (found) return found;
    }
    return first(checker.getPropertiesOfType(current), (property) => {
      if (property.escapedName.toString().startsWith('__@')) return `${path}${checker.symbolToString(property)} is keyed by a symbol: JSON keys are strings`;
      return visit(checker.getTypeOfSymbol(property), `${path}.${property.name}`);
    });
  };
  return visit(type, name);
}

function first<T>(items: readonly T[], find: (item: T, index: number) => string | undefined): string | undefined {
  for (let index = 0; index < items.length; index++) {
    const found = find(items[index], index);
    if (found) return found;
  }
  return undefined;
}
