import { MANIFEST_VERSION, hashSource, schemaCompileProblems } from '@toolsmith/core/internal';
import type { JsonSchema } from '@toolsmith/core';
import type { ManifestDocument, ManifestMethod, ManifestParameter, ManifestToolset, ManifestType } from '@toolsmith/core/internal';
import { relative, sep } from 'node:path';
import * as ts from 'typescript';
import { SchemaSourceError } from '../cli-errors';
import { closeObjects } from './closed-objects';
import { containsToolContext, isToolContextType } from './context-parameter';
import { DeclarationFiles } from './declaration-files';
import { dtoClassName } from './dto-parameters';
import type { FoundManifestType } from './find-manifest-types';
import { type FoundTool, type FoundToolset, findDecorator, location } from './find-toolsets';
import { jsDocParamDescription, jsDocSummary } from './jsdoc';
import { aliasConstraints, applyConstraints, jsDocConstraints } from './jsdoc-constraints';
import { nonJsonPart } from './non-json-parts';
import { ToolSignature, mentionsTypeParameter } from './tool-signature';
import { type TypeSchema, TypeSchemas } from './type-schemas';

/** Options of {@link generateManifest}. */
export interface GenerateManifestOptions {
  /** Directory the manifest will be written to; source paths are recorded relative to it. */
  manifestDir: string;
  /** Written into the manifest's `generator` field. */
  generator: string;
  /** Problems that do not stop generation (an output type with no JSON form). */
  warn?: (message: string) => void;
}

/** What the manifest is generated from: the `@Toolset` classes and the `manifestType` calls of the program. */
export interface ManifestSources {
  toolsets: FoundToolset[];
  types?: FoundManifestType[];
}

/**
 * Builds the manifest of the given toolsets: per `@Tool` method its parameters (ToolContext and
 * class-validator DTOs left out: their schemas come from the DTO's rules at startup),
 * their schemas, optionality and `@param` descriptions, the JSDoc summary and the output schema; per
 * class the source path and its hash. Per `manifestType<T>('Name')` call, the schema of `T` under
 * `types` (the section is left out when there is none, so manifests without types do not change).
 */
export function generateManifest(program: ts.Program, { toolsets, types = [] }: ManifestSources, options: GenerateManifestOptions): ManifestDocument {
  const schemas = new TypeSchemas(program, (message) => options.warn?.(`typescript-json-schema: ${message}`));
  const checker = program.getTypeChecker();
  // Without a target, TypeScript 5 compiles to ES5 and later versions to a recent ES.
  const target = program.getCompilerOptions().target ?? (Number(ts.versionMajorMinor.split('.')[0]) >= 6 ? ts.ScriptTarget.ES2015 : ts.ScriptTarget.ES5);
  const document: ManifestDocument = { version: MANIFEST_VERSION, generator: options.generator, toolsets: {} };
  const sourceOf = (file: ts.SourceFile) => ({
    source: relative(options.manifestDir, file.fileName).split(sep).join('/'),
    sourceHash: hashSource(file.text),
  });
  // The other files an entry's schemas were built from, sorted by path; absent when there are none.
  const dependenciesOf = (files: DeclarationFiles, own: readonly ts.SourceFile[]) => {
    const others = [...files.files].filter((file) => !own.includes(file)).map(sourceOf);
    others.sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
    return others.length > 0 ? { dependencies: others } : {};
  };
  const seenIn = new Map<string, string>();
  for (const toolset of toolsets) {
    const previous = seenIn.get(toolset.className);
    if (previous !== undefined) {
      throw new SchemaSourceError(
        `Two @Toolset classes are named ${toolset.className} (${previous} and ${toolset.sourceFile.fileName}); ` +
          'the manifest is keyed by class name, so rename one of them.',
      );
    }
    seenIn.set(toolset.className, toolset.sourceFile.fileName);
    const methods: ManifestToolset['methods'] = {};
    const files = new DeclarationFiles(program);
    for (const tool of toolset.tools) {
      methods[tool.methodName] = describeMethod(checker, schemas, toolset, tool, options.warn ?? (() => undefined), target);
      declarationFilesOfTool(checker, files, toolset, tool);
    }
    const entry: ManifestToolset = { ...sourceOf(toolset.sourceFile), methods };
    if (toolset.baseSourceFiles.length > 0) entry.bases = toolset.baseSourceFiles.map(sourceOf);
    const dependencies = dependenciesOf(files, [toolset.sourceFile, ...toolset.baseSourceFiles]);
    document.toolsets[toolset.className] = { ...entry, ...dependencies };
  }
  const described = describeTypes(checker, schemas, types, sourceOf, (found) => {
    const files = new DeclarationFiles(program);
    files.ofNode(found.typeNode);
    files.ofType(checker.getTypeFromTypeNode(found.typeNode));
    return dependenciesOf(files, [found.declarationFile]);
  });
  if (Object.keys(described).length > 0) document.types = described;
  return document;
}

/** The `types` section: each name's schema, sorted by name; one name given two different types is an error. */
function describeTypes(
  checker: ts.TypeChecker,
  schemas: TypeSchemas,
  types: FoundManifestType[],
  sourceOf: (file: ts.SourceFile) => { source: string; sourceHash: string },
  dependenciesOf: (found: FoundManifestType) => Pick<ManifestType, 'dependencies'>,
): Record<string, ManifestType> {
  const described = new Map<string, { entry: ManifestType; at: string }>();
  for (const found of types) {
    const at = location(found.sourceFile, found.typeNode);
    const type = checker.getTypeFromTypeNode(found.typeNode);
    if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) {
      throw new SchemaSourceError(`${at}: manifestType<${found.typeNode.getText(found.sourceFile)}>('${found.typeName}') says nothing about the value; give it an object type.`);
    }
    const generated = jsonSchemaOf(schemas, checker, type, `${at}: manifestType('${found.typeName}')`);
    const schema = withDefs(generated.schema, generated.defs);
    const entry: ManifestType = { ...sourceOf(found.declarationFile), ...dependenciesOf(found), schema };
    const previous = described.get(found.typeName);
    if (previous && JSON.stringify(previous.entry.schema) !== JSON.stringify(schema)) {
      throw new SchemaSourceError(
        `${at}: manifestType('${found.typeName}') names another type than at ${previous.at}; the manifest is keyed by the name, so give each type its own.`,
      );
    }
    if (!previous) described.set(found.typeName, { entry, at });
  }
  return Object.fromEntries([...described.keys()].sort().map((name) => [name, described.get(name)!.entry]));
}

/**
 * Adds the files the schemas of a tool were built from: its parameters' types (the context and DTO
 * parameters left out, as in {@link describeMethod}) and its return type.
 */
function declarationFilesOfTool(checker: ts.TypeChecker, files: DeclarationFiles, toolset: FoundToolset, tool: FoundTool): void {
  const signature = new ToolSignature(checker, toolset, tool);
  tool.declaration.parameters.forEach((parameter, index) => {
    const type = signature.parameterType(index);
    if (isContextParameter(checker, parameter, type, location(tool.sourceFile, parameter)) || dtoClassName(checker, parameter) !== undefined) return;
    files.ofNode(parameter.type);
    files.ofType(type);
  });
  files.ofNode(tool.declaration.type);
  const output = outputType(checker, signature);
  if (output) files.ofType(output);
}

function describeMethod(
  checker: ts.TypeChecker,
  schemas: TypeSchemas,
  toolset: FoundToolset,
  tool: FoundTool,
  warn: (message: string) => void,
  target: ts.ScriptTarget,
): ManifestMethod {
  const where = `${toolset.className}.${tool.methodName}`;
  // Key order is the reading order of the written file: description, parameters, then the rest.
  const description = jsDocSummary(tool.declaration);
  const method: ManifestMethod = description ? { description, parameters: [] } : { parameters: [] };
  const defs: Record<string, JsonSchema> = {};
  const signature = new ToolSignature(checker, toolset, tool);

  tool.declaration.parameters.forEach((parameter, index) => {
    const at = `${location(tool.sourceFile, parameter)} (${where})`;
    const type = signature.parameterType(index);
    if (isContextParameter(checker, parameter, type, at)) {
      method.contextIndex = index;
      return;
    }
    // A class-validator DTO's schema comes from its rules at startup; a schema of its TypeScript type would go unused.
    if (dtoClassName(checker, parameter) !== undefined) return;
    if (!ts.isIdentifier(parameter.name)) {
      throw new SchemaSourceError(`${at}: a destructured parameter has no name to put in the schema; use a named parameter.`);
    }
    if (parameter.dotDotDotToken) {
      throw new SchemaSourceError(`${at}: rest parameter ...${parameter.name.text} cannot be a tool argument; use an array parameter.`);
    }
    if (type.flags & ts.TypeFlags.Any) {
      throw new SchemaSourceError(
        `${at}: parameter ${parameter.name.text} has type any, which says nothing to the model; give it a type (or unknown for any JSON value).`,
      );
    }
    if (mentionsTypeParameter(checker, type)) {
      throw new SchemaSourceError(
        `${at}: parameter ${parameter.name.text} has type ${checker.typeToString(type)}, a type parameter that ${toolset.className} does not fix, ` +
          `so the model would be told nothing true about it; extend the generic class with a type argument (class ${toolset.className} extends Base<string>) ` +
          'or give the parameter a concrete type.',
      );
    }
    const nonJson = nonJsonPart(checker, type, parameter.name.text);
    if (nonJson !== undefined) throw noJsonForm(checker, type, `${at}: parameter ${parameter.name.text}`, nonJson);
    const generated = jsonSchemaOf(schemas, checker, type, `${at}: parameter ${parameter.name.text}`);
    // The model's arguments are closed all the way down, as the arguments object itself is.
    for (const [name, definition] of Object.entries(generated.defs)) defs[name] = closeObjects(definition, generated.defs);
    // JSDoc constraints of the parameter's type aliases, then of the parameter itself (the nearer wins).
    const ownConstraints = jsDocConstraints(parameter, `${at}: parameter ${parameter.name.text}`);
    const constraints = { ...aliasConstraints(checker, parameter.type, at), ...ownConstraints };
    const schema: JsonSchema = applyConstraints(closeObjects(generated.schema, generated.defs), constraints, `${at}: parameter ${parameter.name.text}`);
    const optionalInTypeScript = parameter.questionToken !== undefined || parameter.initializer !== undefined;
    if (ownConstraints.default !== undefined && !optionalInTypeScript) {
      throw new SchemaSourceError(
        `${at}: parameter ${parameter.name.text} has a @default but is required in TypeScript, so the method would get undefined; ` +
          `give it the default in code (${parameter.name.text} = ${JSON.stringify(ownConstraints.default)}) or make it optional (${parameter.name.text}?).`,
      );
    }
    const decorated = paramDecoratorOptions(checker, parameter);
    const name = decorated.name ?? parameter.name.text;
    const entry: ManifestParameter = {
      name,
      index,
      schema,
      optional: optionalInTypeScript || decorated.optional === true,
    };
    // As at runtime, an explicit `@Param('x', { description })` wins over the JSDoc tag.
    const paramDescription = decorated.description ?? jsDocParamDescription(parameter, name);
    if (paramDescription) {
      entry.description = paramDescription;
      schema.description = paramDescription;
    }
    const defaultValue = literalValue(parameter.initializer);
    if (defaultValue !== undefined) schema.default = defaultValue;
    if (isDate(checker, type)) entry.revive = 'date';
    // What startup would refuse (a JSDoc `@format phone`, here or on a property): refused here, naming the parameter.
    const problems = schemaCompileProblems(Object.keys(defs).length > 0 ? { ...schema, $defs: defs } : schema);
    if (problems.length > 0) {
      throw new SchemaSourceError(
        `${at}: parameter ${parameter.name.text} would get a schema ajv does not check as written (${problems.join(', ')}); ` +
          'change the JSDoc tag (e.g. @format email: the formats are ajv-formats\' ones).',
      );
    }
    method.parameters.push(entry);
  });

  // What startup checks to know the class it scans is the one described (not another of the same name).
  Object.assign(method, compiledArity(tool.declaration, target));
  const output = outputType(checker, signature);
  if (output && mentionsTypeParameter(checker, output)) {
    warn(`${location(tool.sourceFile, tool.declaration)} (${where}): no output schema, the return type ${checker.typeToString(output)} has a type parameter ${toolset.className} does not fix.`);
  } else if (output) {
    try {
      const generated = schemas.schemaOf(output);
      // Initializers of an inferred object literal (`return { status: 'ok' }`) are not defaults of a result.
      const schema = withoutDefaults(generated.schema) as JsonSchema;
      method.outputSchema = Object.keys(generated.defs).length > 0 ? { ...schema, $defs: withoutDefaults(generated.defs) } : schema;
    } catch (cause) {
      warn(`${location(tool.sourceFile, tool.declaration)} (${where}): no output schema, the return type has no JSON form (${(cause as Error).message}).`);
    }
  }
  if (Object.keys(defs).length > 0) method.$defs = defs;
  return method;
}

/**
 * The method's `Function.length` as the project compiles it (from ES2015 on, parameters before the
 * first with a default or a rest; below, defaults move into the body and only a rest stops the count)
 * and its parameter count (a `this` parameter is not one).
 */
function compiledArity(declaration: ts.MethodDeclaration, target: ts.ScriptTarget): { length: number; parameterCount: number } {
  const parameters = declaration.parameters.filter((parameter) => !(ts.isIdentifier(parameter.name) && parameter.name.text === 'this'));
  const stops = (parameter: ts.ParameterDeclaration) => parameter.dotDotDotToken !== undefined || (target >= ts.ScriptTarget.ES2015 && parameter.initializer !== undefined);
  const first = parameters.findIndex(stops);
  return { length: first === -1 ? parameters.length : first, parameterCount: parameters.length };
}

/**
 * A self-contained schema: `defs` attached as `$defs`. A recursive type's root is only a `$ref` to its
 * own definition; its definition is put at the root (the refs inside still resolve), so that the root
 * says what it is (`type: "object"`), which output schemas need.
 */
function withDefs(schema: JsonSchema, defs: Record<string, JsonSchema>): JsonSchema {
  if (Object.keys(defs).length === 0) return { ...schema };
  const own = typeof schema.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(schema.$ref)?.[1] : undefined;
  if (own === undefined || !Object.prototype.hasOwnProperty.call(defs, own)) return { ...schema, $defs: defs };
  const { $ref, ...rest } = schema;
  void $ref;
  return { ...defs[own], ...rest, $defs: defs };
}

/** The schema of `type`; a type without a JSON form is a `SchemaSourceError` that starts with `subject` (place and name). */
function jsonSchemaOf(schemas: TypeSchemas, checker: ts.TypeChecker, type: ts.Type, subject: string): TypeSchema {
  try {
    return schemas.schemaOf(type);
  } catch (cause) {
    throw noJsonForm(checker, type, subject, (cause as Error).message, cause);
  }
}

function noJsonForm(checker: ts.TypeChecker, type: ts.Type, subject: string, reason: string, cause?: unknown): SchemaSourceError {
  return new SchemaSourceError(
    `${subject} has type ${checker.typeToString(type)}, which has no JSON Schema form ` +
      `(${reason}); use JSON-shaped types (string, number, boolean, arrays, objects, literal unions, Date).`,
    cause,
  );
}

/**
 * A parameter typed `ToolContext` (see {@link isToolContextType}) or decorated `@Ctx()`: injected per call,
 * never in the schema. A type that only contains the context (a union, an object with it) is refused.
 */
function isContextParameter(checker: ts.TypeChecker, parameter: ts.ParameterDeclaration, type: ts.Type, at: string): boolean {
  if (findDecorator(checker, parameter, 'Ctx')) return true;
  if (isToolContextType(type)) return true;
  // Without core's types installed the import does not resolve, but it still names the context.
  if (type.flags & ts.TypeFlags.Any && parameter.type && ts.isTypeReferenceNode(parameter.type) && resolvesToContextName(checker, parameter.type)) return true;
  if (containsToolContext(checker, type)) {
    const name = ts.isIdentifier(parameter.name) ? parameter.name.text : parameter.name.getText();
    throw new SchemaSourceError(
      `${at}: parameter ${name} has type ${checker.typeToString(type)}, which contains ToolContext without being it; ` +
        'the context is injected only into a parameter typed ToolContext (or marked @Ctx()), and a tool argument cannot hold one. ' +
        'Type the parameter ToolContext, or leave the context out of its type.',
    );
  }
  return false;
}

function resolvesToContextName(checker: ts.TypeChecker, node: ts.TypeReferenceNode): boolean {
  const symbol = checker.getSymbolAtLocation(node.typeName);
  const target = symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const name = target && target.name !== 'unknown' ? target.name : node.typeName.getText();
  return name === 'ToolContext' || name.endsWith('.ToolContext');
}

/** What `@Param('name', { description, optional, default })` says, as far as it is written with literals. */
interface DecoratedParam {
  /** The argument's name, at runtime too. */
  name?: string;
  description?: string;
  /** `optional: true` or a `default`: the runtime makes the argument optional. */
  optional?: boolean;
}

function paramDecoratorOptions(checker: ts.TypeChecker, parameter: ts.ParameterDeclaration): DecoratedParam {
  const decorator = findDecorator(checker, parameter, 'Param');
  if (!decorator || !ts.isCallExpression(decorator.expression)) return {};
  const [first, second] = decorator.expression.arguments;
  const found: DecoratedParam = {};
  if (first && ts.isStringLiteralLike(first)) found.name = first.text;
  if (second && ts.isObjectLiteralExpression(second)) {
    for (const property of second.properties) {
      if (!ts.isPropertyAssignment(property)) continue;
      const key = property.name.getText();
      if (key === 'description' && ts.isStringLiteralLike(property.initializer)) found.description = property.initializer.text;
      if ((key === 'optional' && property.initializer.kind === ts.SyntaxKind.TrueKeyword) || key === 'default') found.optional = true;
    }
  }
  return found;
}

/** The value of a literal default (`= 'celsius'`, `= 3`, `= false`), for the schema's `default`. */
function literalValue(initializer: ts.Expression | undefined): string | number | boolean | undefined {
  if (!initializer) return undefined;
  if (ts.isStringLiteralLike(initializer)) return initializer.text;
  if (ts.isNumericLiteral(initializer)) return Number(initializer.text);
  if (ts.isPrefixUnaryExpression(initializer) && initializer.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(initializer.operand)) {
    return -Number(initializer.operand.text);
  }
  if (initializer.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (initializer.kind === ts.SyntaxKind.FalseKeyword) return false;
  return undefined;
}

function withoutDefaults(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDefaults);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'default') continue;
    out[key] = key === 'enum' || key === 'const' || key === 'examples' ? value : withoutDefaults(value);
  }
  return out;
}

/** `Date` (or `Date | null`, `Date | undefined`): the binder turns the ISO string into a `Date`. */
function isDate(checker: ts.TypeChecker, type: ts.Type): boolean {
  const members = type.isUnion() ? type.types.filter((t) => !(t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined))) : [type];
  const symbol = members.length === 1 ? members[0].getSymbol() : undefined;
  return symbol !== undefined && checker.getFullyQualifiedName(symbol) === 'Date';
}

/** The awaited return type, or `undefined` when it says nothing (void, any, unknown, never). */
function outputType(checker: ts.TypeChecker, signature: ToolSignature): ts.Type | undefined {
  const returned = signature.returnType();
  if (!returned) return undefined;
  const type = checker.getAwaitedType(returned) ?? returned;
  const silent = ts.TypeFlags.Void | ts.TypeFlags.Undefined | ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Never;
  return type.flags & silent ? undefined : type;
}
