import type { JsonSchema } from '@toolsmith/core';
import * as ts from 'typescript';
import * as TJS from 'typescript-json-schema';
import { brandedBase } from './branded-types';
import { inlineDefinitions } from './inline-definitions';
import { integerKeywords } from './jsdoc-constraints';

/** A type's schema, self-contained except for recursive types, which stay `$ref`s into `defs`. */
export interface TypeSchema {
  schema: JsonSchema;
  defs: Record<string, JsonSchema>;
}

// typescript-json-schema's own rule for naming a type's definition (REGEX_FILE_NAME_OR_SPACE there).
const FILE_NAME_OR_SPACE = /(\bimport\(".*?"\)|".*?")\.| /g;

const GENERATOR_ARGS: TJS.PartialArgs = {
  ref: true, // recursive types need refs; inlineDefinitions() inlines all the others
  required: true,
  strictNullChecks: true,
  ignoreErrors: true,
  // `@integer` and `@asType integer` on properties: kept as keywords, then made `type: "integer"` (integerKeywords).
  validationKeywords: ['integer', 'asType'],
};

/**
 * Turns TypeScript types into JSON Schemas with typescript-json-schema's generator: literal unions
 * become `enum`, `Date` becomes `format: date-time`, interfaces and aliases are expanded with their
 * JSDoc. Adds what the generator lacks: `Record<string, T>` as `additionalProperties: T`.
 */
export class TypeSchemas {
  // The generator looks types up in this object by name, so types are registered before each call.
  private readonly types: Record<string, ts.Type> = {};
  private readonly generator: TJS.JsonSchemaGenerator;
  private readonly records = new Map<ts.Type, TypeSchema>();
  private readonly visited = new Set<ts.Type>();
  private next = 0;

  constructor(
    private readonly program: ts.Program,
    /** Receives what the generator would print to the console (e.g. "Expected only a simple type."). */
    private readonly onNote: (message: string) => void = () => undefined,
    private readonly checker: ts.TypeChecker = program.getTypeChecker(),
  ) {
    const args = { ...TJS.getDefaultArgs(), ...GENERATOR_ARGS } as TJS.Args;
    this.generator = new TJS.JsonSchemaGenerator([], this.types, {}, {}, this.checker, args);
    this.correctRootTypes();
    this.readBrandsAsTheirBase();
  }

  // The generator writes a branded type (`string & { __brand: 'UserId' }`) as an allOf of the string and
  // an object with the brand, which no JSON value is; it is the string (or number) itself.
  private readBrandsAsTheirBase(): void {
    const generator = this.generator as unknown as { getIntersectionDefinition?: IntersectionHandler };
    const original = generator.getIntersectionDefinition;
    if (typeof original !== 'function') throw new Error('typescript-json-schema has no getIntersectionDefinition any more; update TypeSchemas.');
    const checker = this.checker;
    generator.getIntersectionDefinition = function (type, definition) {
      const base = brandedBase(checker, type);
      if (base === undefined) return original.call(this, type, definition);
      return Object.assign(definition, this.getTypeDefinition(base));
    };
  }

  // The generator's handler of the types that are not objects is private, and some of its answers are
  // wrong for the manifest: tuples as draft-07 `items: [...]`, which a validator of draft 2020-12 reads
  // otherwise, `bigint` and symbols as numbers and objects, and template literals as loose patterns
  // (`${number}` as `[0-9]*`). This instance's handler is wrapped to correct them.
  private correctRootTypes(): void {
    const generator = this.generator as unknown as { getDefinitionForRootType?: RootTypeHandler };
    const original = generator.getDefinitionForRootType;
    if (typeof original !== 'function') throw new Error('typescript-json-schema has no getDefinitionForRootType any more; update TypeSchemas.');
    const checker = this.checker;
    generator.getDefinitionForRootType = function (this: unknown, type, ...rest) {
      if (type.flags & ts.TypeFlags.BigIntLike) throw new Error('bigint has no JSON form: a JSON number loses its digits past 2^53; take a string or a number');
      if (type.flags & ts.TypeFlags.ESSymbolLike) throw new Error('a symbol has no JSON form');
      if (type.flags & ts.TypeFlags.TemplateLiteral) {
        const [, definition] = rest;
        definition.type = 'string';
        definition.pattern = templatePattern(type as ts.TemplateLiteralType);
        return definition;
      }
      if (!checker.isTupleType(type)) return original.call(this, type, ...rest);
      const flags = ((type as ts.TypeReference).target as ts.TupleType).elementFlags;
      if (flags.some((flag, index) => flag & ts.ElementFlags.Variable && index !== flags.length - 1)) {
        throw new Error('a tuple with a rest element before its end has no JSON Schema form; put the rest element last');
      }
      return prefixItems(original.call(this, type, ...rest));
    };
  }

  /** The schema of `type`; throws what the generator throws for types without a JSON form. */
  schemaOf(type: ts.Type): TypeSchema {
    this.registerRecords(type);
    const record = this.records.get(type);
    if (record) return record;
    return this.generate(type);
  }

  private generate(type: ts.Type): TypeSchema {
    const key = `__toolsmith_type_${this.next++}`;
    this.types[key] = type;
    try {
      const { definitions, $schema, ...schema } = this.quietly(() => this.generator.getSchemaForSymbol(key, true)) as JsonSchema;
      void $schema;
      const inlined = inlineDefinitions(schema, (definitions ?? {}) as Record<string, JsonSchema>);
      const where = this.checker.typeToString(type);
      return { schema: integerKeywords(inlined.schema, where) as JsonSchema, defs: integerKeywords(inlined.defs, where) as Record<string, JsonSchema> };
    } finally {
      delete this.types[key];
    }
  }

  // The generator reports some findings with console.warn/console.error. They are collected so the
  // command decides where they go (and stdout stays clean for --print); the notes about initializers
  // of inferred object literals (`{ status: 'ok' }`) say nothing useful and are dropped.
  private quietly<T>(run: () => T): T {
    const { warn, error } = console;
    const note = (...parts: unknown[]) => {
      const message = parts.map(String).join(' ');
      if (!/^(unknown initializer|initializer is expression)/.test(message)) this.onNote(message);
    };
    console.warn = note;
    console.error = note;
    try {
      return run();
    } finally {
      console.warn = warn;
      console.error = error;
    }
  }

  // The generator writes `Record<string, T>` (a mapped type with no declared members) as a bare
  // `{ type: "object" }`. Every such type reachable from `type` gets a schema override, inner ones
  // first, under the name the generator gives its definition.
  private registerRecords(type: ts.Type): void {
    if (this.visited.has(type) || this.isFromDefaultLibrary(type)) return;
    this.visited.add(type);
    if (type.isUnionOrIntersection()) {
      type.types.forEach((member) => this.registerRecords(member));
      return;
    }
    if (!(type.flags & ts.TypeFlags.Object)) return;
    if (this.checker.isArrayType(type) || this.checker.isTupleType(type)) {
      this.checker.getTypeArguments(type as ts.TypeReference).forEach((argument) => this.registerRecords(argument));
      return;
    }
    const index = this.checker.getIndexInfoOfType(type, ts.IndexKind.String);
    const isMappedRecord =
      index !== undefined &&
      ((type as ts.ObjectType).objectFlags & ts.ObjectFlags.Mapped) !== 0 &&
      this.checker.getPropertiesOfType(type).length === 0;
    if (isMappedRecord) {
      this.registerRecords(index.type);
      const value = this.schemaOf(index.type);
      const record: TypeSchema = { schema: { type: 'object', additionalProperties: value.schema }, defs: value.defs };
      this.records.set(type, record);
      this.generator.setSchemaOverride(this.definitionName(type), record.schema as TJS.Definition);
      return;
    }
    for (const property of this.checker.getPropertiesOfType(type)) {
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      if (declaration) this.registerRecords(this.checker.getTypeOfSymbolAtLocation(property, declaration));
    }
  }

  private definitionName(type: ts.Type): string {
    return this.checker
      .typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseFullyQualifiedType)
      .replace(FILE_NAME_OR_SPACE, '');
  }

  private isFromDefaultLibrary(type: ts.Type): boolean {
    const declaration = (type.aliasSymbol ?? type.getSymbol())?.declarations?.[0];
    if (!declaration) return false;
    const file = declaration.getSourceFile();
    // Record itself is declared in lib.es5.d.ts: only its instantiations' *members* are skipped.
    if ((type as ts.ObjectType).objectFlags & ts.ObjectFlags.Mapped) return false;
    return this.program.isSourceFileDefaultLibrary(file);
  }
}

type IntersectionHandler = (this: { getTypeDefinition(type: ts.Type): TJS.Definition }, type: ts.IntersectionType, definition: TJS.Definition) => TJS.Definition;
type RootTypeHandler = (this: unknown, type: ts.Type, reffedType: unknown, definition: TJS.Definition, ...rest: unknown[]) => TJS.Definition;

/**
 * A tuple's schema in draft 2020-12 from the generator's draft-07 one: its elements as `prefixItems`,
 * `items` the rest element's schema or `false` (nothing after the last element), `minItems` the
 * required elements (the optional ones may be left out, from the end).
 */
function prefixItems(definition: TJS.Definition): TJS.Definition {
  // The generator keeps the definition it passed in, so it is changed in place.
  const tuple = definition as Record<string, unknown>;
  const { items, additionalItems, minItems } = tuple;
  delete tuple.items;
  delete tuple.additionalItems;
  delete tuple.maxItems;
  delete tuple.minItems;
  tuple.type = 'array';
  if (Array.isArray(items) && items.length > 0) tuple.prefixItems = items;
  tuple.items = additionalItems ?? false;
  if (typeof minItems === 'number' && minItems > 0) tuple.minItems = minItems;
  return definition;
}

// A number as JSON writes it: what a `${number}` placeholder stands for in the manifest.
const JSON_NUMBER = '-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?';

/** The pattern of a template literal type: its texts as they are, each placeholder as the strings its type allows. */
function templatePattern(type: ts.TemplateLiteralType): string {
  const escape = (text: string) => text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
  const placeholder = (part: ts.Type): string => {
    if (part.flags & ts.TypeFlags.String) return '[\\s\\S]*';
    if (part.flags & ts.TypeFlags.Number) return JSON_NUMBER;
    if (part.flags & ts.TypeFlags.BigInt) return '-?(?:0|[1-9][0-9]*)';
    if (part.isStringLiteral()) return escape(part.value);
    if (part.isNumberLiteral()) return escape(String(part.value));
    if (part.flags & ts.TypeFlags.Null) return 'null';
    if (part.flags & ts.TypeFlags.Undefined) return 'undefined';
    if (part.flags & ts.TypeFlags.BooleanLiteral) return (part as { intrinsicName?: string }).intrinsicName ?? '(?:true|false)';
    if (part.isUnion()) return `(?:${part.types.map(placeholder).join('|')})`;
    throw new Error('a template literal with a placeholder other than string, number, bigint or literals has no JSON Schema pattern');
  };
  return `^${type.texts.map((text, index) => escape(text) + (index < type.types.length ? placeholder(type.types[index]) : '')).join('')}$`;
}
