import * as ts from 'typescript';

// What a brand is added to: strings, numbers, booleans and their literals, template literals and enums.
const BRANDABLE = ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike;

/**
 * The base type of a branded type: `string & { __brand: 'UserId' }`, `number & { readonly __brand: 'Cents' }`,
 * zod's `string & $brand<'Id'>` and valibot's `Brand<'Id'>` (an object keyed by a unique symbol) are the
 * string or number a JSON value is; the brand exists only for the compiler. An intersection of exactly one
 * string, number or boolean type and object types that are not functions or arrays; `undefined` for any
 * other type.
 */
export function brandedBase(checker: ts.TypeChecker, type: ts.Type): ts.Type | undefined {
  if (!type.isIntersection()) return undefined;
  let base: ts.Type | undefined;
  for (const member of type.types) {
    if (member.flags & BRANDABLE) {
      if (base !== undefined) return undefined;
      base = member;
    } else if (!isBrandObject(checker, member)) return undefined;
  }
  return base;
}

function isBrandObject(checker: ts.TypeChecker, type: ts.Type): boolean {
  if (!(type.flags & ts.TypeFlags.Object) || checker.isArrayType(type) || checker.isTupleType(type)) return false;
  return type.getCallSignatures().length === 0 && type.getConstructSignatures().length === 0;
}
