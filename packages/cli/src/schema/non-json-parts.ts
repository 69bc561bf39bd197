import * as ts from 'typescript';
import { brandedBase } from './branded-types';

// Library types a JSON value never is: the generator would write their fields (`size`, `__@toStringTag@…`) as an object.
const MAP = 'a Map: JSON has no Maps; take a Record<string, T> or an array of pairs';
const SET = 'a Set: JSON has no Sets; take an array';
const PROMISE = 'a Promise: JSON has no Promises; take the value itself';
const FUNCTION = 'a function: JSON has no functions';
const BYTES = 'a byte array: JSON has no bytes; take a base64 string';
const ERROR = 'an Error: JSON has no Errors (the model would have to write its stack); take the fields you need, e.g. { message: string }';
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
  ArrayBuffer: BYTES,
  SharedArrayBuffer: BYTES,
  DataView: BYTES,
  Int8Array: BYTES,
  Uint8Array: BYTES,
  Uint8ClampedArray: BYTES,
  Int16Array: BYTES,
  Uint16Array: BYTES,
  Int32Array: BYTES,
  Uint32Array: BYTES,
  Float32Array: BYTES,
  Float64Array: BYTES,
  BigInt64Array: BYTES,
  BigUint64Array: BYTES,
  Error: ERROR,
  EvalError: ERROR,
  RangeError: ERROR,
  ReferenceError: ERROR,
  SyntaxError: ERROR,
  TypeError: ERROR,
  URIError: ERROR,
  AggregateError: ERROR,
};

/**
 * Where a parameter's type holds something JSON cannot carry: a function (a method of an interface or
 * class included), a `Map`, `Set`, `WeakMap`, `WeakSet`, `RegExp`, `Promise`, `Error`, a typed array
 * (`Uint8Array`) or buffer, or a class or interface extending one of them, or a property keyed by a
 * symbol, at any depth (objects, arrays, tuples, unions, index signatures). The answer names the path
 * from the parameter (`options.onDone is a function`, `pair[1] is a Map`); `undefined` when there is none.
 */
export function nonJsonPart(checker: ts.TypeChecker, type: ts.Type, name: string): string | undefined {
  const seen = new Set<ts.Type>();
  const fromLibrary = (symbol: ts.Symbol) => {
    const declaration = symbol.declarations?.[0];
    return declaration !== undefined && declaration.getSourceFile().hasNoDefaultLib;
  };
  const inheritedKind = (current: ts.Type): string | undefined => {
    const object = current as ts.ObjectType;
    const target = object.objectFlags & ts.ObjectFlags.Reference ? (current as ts.TypeReference).target : object;
    if (!(target.objectFlags & ts.ObjectFlags.ClassOrInterface)) return undefined;
    for (const base of checker.getBaseTypes(target as ts.InterfaceType)) {
      const symbol = base.getSymbol();
      const kind = symbol && fromLibrary(symbol) ? NON_JSON_LIBRARY_TYPES[symbol.name] : inheritedKind(base);
      if (kind) return kind;
    }
    return undefined;
  };
  const visit = (current: ts.Type, path: string): string | undefined => {
    if (seen.has(current)) return undefined;
    seen.add(current);
    // A branded string or number (`string & { __brand: 'UserId' }`) is its base type: the brand is the compiler's.
    if (brandedBase(checker, current) !== undefined) return undefined;
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
    // A project class or interface built on one of them (`class NotFound extends Error`) is one of them.
    const inherited = inheritedKind(current);
    if (inherited) return `${path} is ${inherited}`;
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
