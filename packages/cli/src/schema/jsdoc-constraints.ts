import type { JsonSchema } from '@toolsmith/core';
import * as ts from 'typescript';
import { SchemaSourceError } from '../cli-errors';

/** Tags whose text is a non-negative or any number, copied as the keyword of the same name. */
const NUMBER_TAGS = new Set([
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
]);
/** Tags whose text is copied as a string. */
const STRING_TAGS = new Set(['pattern', 'format']);
/** Tags that say "integer": `@integer` and `@asType integer`. */
const INTEGER_TAGS = new Set(['integer', 'asType']);

/** The JSON Schema constraints one declaration's JSDoc states, as keywords; `integer: true` when it says the number is whole. */
export type Constraints = JsonSchema & { integer?: true };

/**
 * The constraints the JSDoc of `node` (a parameter or a type alias) states: `@pattern`, `@format`,
 * `@minimum`, `@maximum`, `@exclusiveMinimum`, `@exclusiveMaximum`, `@multipleOf`, `@minLength`,
 * `@maxLength`, `@minItems`, `@maxItems`, `@minProperties`, `@maxProperties`, `@uniqueItems`,
 * `@integer` / `@asType integer` and `@default` (JSON, else the text as a string). A tag whose text
 * cannot be read is a `SchemaSourceError` that names `at` and the fix. Other tags are left alone.
 */
export function jsDocConstraints(node: ts.Node, at: string): Constraints {
  const found: Constraints = {};
  for (const tag of ts.getJSDocTags(node)) {
    if (ts.isJSDocParameterTag(tag)) continue; // a method's `@param x text`: the description, read elsewhere
    const name = tag.tagName.text;
    const text = (ts.getTextOfJSDocComment(tag.comment) ?? '').trim();
    const bad = (expected: string) =>
      new SchemaSourceError(`${at}: JSDoc tag @${name} ${JSON.stringify(text)} is not ${expected}; write it as e.g. ${example(name)}.`);
    if (NUMBER_TAGS.has(name)) {
      const value = Number(text);
      if (text === '' || !Number.isFinite(value)) throw bad('a number');
      found[name] = value;
    } else if (STRING_TAGS.has(name)) {
      if (text === '') throw bad('a value');
      if (name === 'pattern' && !isRegExp(text)) throw bad('a regular expression (ajv reads it with the u flag)');
      found[name] = text;
    } else if (INTEGER_TAGS.has(name)) {
      if (name === 'asType' && text !== 'integer') throw bad('"integer" (the only type @asType can name)');
      if (name === 'integer' && text !== '') throw bad('a flag (it takes no text)');
      found.integer = true;
    } else if (name === 'uniqueItems') {
      found.uniqueItems = true;
    } else if (name === 'default') {
      if (text === '') throw bad('a value');
      found.default = jsonOrText(text);
    }
  }
  return found;
}

/**
 * The constraints a type node carries through type aliases (`type OrderId = string` with its JSDoc),
 * following aliases of aliases (the nearer alias wins). TypeScript forgets the alias of a primitive,
 * so typescript-json-schema cannot see these tags on a parameter's type. An array's element aliases
 * give the constraints of `items`; `undefined` and `null` members of a union are looked through.
 */
export function aliasConstraints(checker: ts.TypeChecker, node: ts.TypeNode | undefined, at: string): JsonSchema {
  if (!node) return {};
  if (ts.isParenthesizedTypeNode(node)) return aliasConstraints(checker, node.type, at);
  if (ts.isUnionTypeNode(node)) {
    const members = node.types.filter((member) => !isNullish(member));
    return members.length === 1 ? aliasConstraints(checker, members[0], at) : {};
  }
  if (ts.isArrayTypeNode(node)) return withItems(aliasConstraints(checker, node.elementType, at));
  if (!ts.isTypeReferenceNode(node)) return {};
  if (node.typeName.getText() === 'Array' && node.typeArguments?.length === 1) return withItems(aliasConstraints(checker, node.typeArguments[0], at));
  const symbol = checker.getSymbolAtLocation(node.typeName);
  const target = symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const declaration = target?.declarations?.find(ts.isTypeAliasDeclaration);
  if (!declaration || declaration.getSourceFile().isDeclarationFile) return {};
  return { ...aliasConstraints(checker, declaration.type, at), ...jsDocConstraints(declaration, `${at}, type ${declaration.name.text}`) };
}

/**
 * `schema` with `constraints` applied: keywords copied, `integer` turned into `type: "integer"` (a
 * number's type only), `items` constraints into the items' schema. A constraint that cannot apply
 * (`@integer` on a string) is a `SchemaSourceError` naming `at`.
 */
export function applyConstraints(schema: JsonSchema, constraints: Constraints, at: string): JsonSchema {
  const { integer, items, ...keywords } = constraints;
  const out: JsonSchema = { ...schema, ...keywords };
  if (integer) {
    const type = schema.type;
    if (type === 'number' || type === 'integer') out.type = 'integer';
    else if (Array.isArray(type) && type.includes('number')) out.type = type.map((t) => (t === 'number' ? 'integer' : t));
    else throw new SchemaSourceError(`${at}: @integer is for numbers, and this is ${JSON.stringify(type ?? 'not one type')}; remove the tag or make it a number.`);
  }
  if (items && typeof items === 'object' && !Array.isArray(items) && Object.keys(items).length > 0) {
    if (typeof schema.items !== 'object' || schema.items === null) throw new SchemaSourceError(`${at}: an array's element constraints found no items schema to go on.`);
    out.items = applyConstraints(schema.items as JsonSchema, items as Constraints, at);
  }
  return out;
}

/**
 * typescript-json-schema writes `@integer` and `@asType integer` on interface properties as the
 * keywords `integer` and `asType` (they are registered with it as extra keywords, see `TypeSchemas`):
 * each becomes `type: "integer"`, in every schema of the tree (property names are left alone).
 */
export function integerKeywords(node: unknown, at: string): unknown {
  if (Array.isArray(node)) return node.map((member) => integerKeywords(member, at));
  if (typeof node !== 'object' || node === null) return node;
  const { integer, asType, ...rest } = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) {
    if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') out[key] = value;
    else if (key === 'properties' || key === '$defs' || key === 'definitions' || key === 'patternProperties') {
      out[key] = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([name, schema]) => [name, integerKeywords(schema, at)]));
    } else out[key] = integerKeywords(value, at);
  }
  if (asType !== undefined && asType !== 'integer') throw new SchemaSourceError(`${at}: JSDoc tag @asType ${String(asType)} is not "integer" (the only type @asType can name).`);
  return integer !== undefined || asType !== undefined ? applyConstraints(out as JsonSchema, { integer: true }, at) : out;
}

function withItems(items: JsonSchema): JsonSchema {
  return Object.keys(items).length > 0 ? { items } : {};
}

function isNullish(node: ts.TypeNode): boolean {
  return (
    node.kind === ts.SyntaxKind.UndefinedKeyword ||
    (ts.isLiteralTypeNode(node) && node.literal.kind === ts.SyntaxKind.NullKeyword)
  );
}

function isRegExp(text: string): boolean {
  try {
    new RegExp(text, 'u');
    return true;
  } catch {
    return false;
  }
}

function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function example(name: string): string {
  if (name === 'pattern') return '@pattern ^A-\\d{4}$';
  if (name === 'format') return '@format email';
  if (name === 'asType' || name === 'integer') return '@integer';
  if (name === 'default') return '@default 10';
  return `@${name} 1`;
}
