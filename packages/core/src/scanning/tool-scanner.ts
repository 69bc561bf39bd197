import type { AuthConfig } from '../auth/auth-config';
import type { ParamMetadata } from '../decorators/param.decorator';
import type { DefinitionSite } from '../errors/messages';
import {
  DuplicateToolNameError,
  InvalidInputSchemaError,
  InvalidParametersError,
  MissingTypeMetadataError,
  UndecoratedParameterError,
} from '../errors/tool-definition-errors';
import { metaSchemaProblems } from '../validation/meta-schema-check';
import type { StandardArguments, StandardProperty } from '../validation/standard-arguments';
import { type StandardSchemaDirection, acceptsUndefined, isStandardSchema, standardJsonSchema } from '../validation/standard-schema';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { CTX_PARAM_METADATA, DESIGN_PARAMTYPES, PARAMS_METADATA, TOOLSET_METADATA } from '../metadata-keys';
import type { JsonSchema } from '../model/json-schema';
import type { ConfirmationHint } from '../tools/confirmation-hint';
import type { RequireConfirmation } from '../tools/require-confirmation';
import { ToolContext } from '../tools/tool-context';
import type { ToolsetOptions } from '../tools/toolset';
import { buildDtoSchema, isDtoClass } from './dto-schema';
import type { ToolManifest } from './manifest';
import type { ManifestMethod } from './manifest-document';
import { manifestArgumentAt, manifestMethodGap, manifestParameterCount, manifestSourceOf } from './manifest-parameters';
import { type ToolMethod, toolMethodsOf } from './method-walker';
import { assertToolName } from './tool-name';
import { assertConfirmationRule } from '../tools/require-confirmation';
import { type ArgumentSource, type ParameterBinding, createParameterBinding } from './parameter-binder';
import { annotate, reflectParameterSchema, typeName } from './schema-builder';

/** What the scanner made of one `@Tool` method. Read-only; built once per class at startup. */
export interface ToolDefinition {
  /** Final tool name (toolset prefix included). */
  readonly name: string;
  /** `@Tool({ description })`, else the method's JSDoc summary from the manifest; `''` when neither exists. */
  readonly description: string;
  /** Canonical JSON Schema (draft 2020-12) of the arguments, `type: "object"`. */
  readonly parameters: JsonSchema;
  /** Schema of the result, from `@Tool({ outputSchema })`. */
  readonly responseSchema?: JsonSchema;
  /** From `@Tool({ longRunning })`; `false` when not set. */
  readonly isLongRunning: boolean;
  /** From `@Tool({ requireConfirmation })`; absent when the call needs no approval. */
  readonly requireConfirmation?: RequireConfirmation;
  /** From `@Tool({ confirmationHint })`. */
  readonly confirmationHint?: ConfirmationHint;
  /** From `@Tool({ timeoutMs })`. */
  readonly timeoutMs?: number;
  /** From `@Tool({ maxResultChars })`. */
  readonly maxResultChars?: number;
  /** From `@Tool({ sequential })`. */
  readonly sequential?: boolean;
  /** From `@Tool({ auth })`. */
  readonly auth?: AuthConfig;
  /** From `@Tool({ idempotent })`. */
  readonly idempotent?: boolean;
  /** From `@Tool({ repairArguments })`. */
  readonly repairArguments?: boolean;
  /** The decorated method's name. */
  readonly methodName: string;
  /** The class that declares the tools. */
  readonly className: string;
}

/** Options of {@link scanTools} and `createClassTools`. A scan with options is not cached per class. */
export interface ScanOptions {
  /**
   * Build-time schema manifest (`toolsmith schema`) to take parameter schemas, descriptions and output
   * schemas from, between explicit schemas and reflection; `null` for none. By default, the
   * process-wide one: `useManifest(...)`, `TOOLSMITH_MANIFEST`, or a `toolsmith.schema.json` found next
   * to the compiled code.
   */
  manifest?: ToolManifest | null;
}

/** A definition plus what the call path needs: the method and its precomputed binder. Internal. */
export interface ScannedTool extends ToolDefinition {
  readonly method: (...args: unknown[]) => unknown;
  readonly binding: ParameterBinding;
  /** The Standard Schemas that judge the arguments (`@Tool({ input })`, `@Param({ schema })`), if any. */
  readonly standardArguments?: StandardArguments;
}

const cache = new WeakMap<Function, readonly ScannedTool[]>();
const publicCache = new WeakMap<Function, readonly ToolDefinition[]>();

/**
 * What the scanner makes of a class (or of an instance's class): one definition per `@Tool` method,
 * with its name, description, canonical JSON Schema and flags. Use it to inspect or snapshot what
 * the model will see. Throws a {@link ToolDefinitionError} naming class, method, parameter and fix.
 *
 * @example
 * ```ts
 * const [weather] = scanTools(WeatherTools);
 * expect(weather.parameters.required).toEqual(['city']);
 * ```
 */
export function scanTools(target: Function | object, options?: ScanOptions): readonly ToolDefinition[] {
  const cls = classOf(target);
  const cached = options ? undefined : publicCache.get(cls);
  if (cached) return cached;
  const definitions = Object.freeze(
    scanClass(cls, options).map(({ method: _method, binding: _binding, standardArguments: _standard, ...definition }) => Object.freeze(definition)),
  );
  if (!options) publicCache.set(cls, definitions);
  return definitions;
}

/** The class behind a scan target: the class itself, or an instance's constructor. */
export function classOf(target: Function | object): Function {
  return typeof target === 'function' ? target : (target.constructor as Function);
}

/** Scans a class once (cached) into definitions with their binders. Internal to core. */
export function scanClass(cls: Function, options?: ScanOptions): readonly ScannedTool[] {
  const cached = options ? undefined : cache.get(cls);
  if (cached) return cached;
  const toolset: ToolsetOptions = Reflect.getMetadata(TOOLSET_METADATA, cls) ?? {};
  const prefix = toolset.prefix ?? '';
  const byName = new Map<string, string>();
  const tools: ScannedTool[] = [];
  for (const toolMethod of toolMethodsOf(cls.prototype)) {
    const site: DefinitionSite = { className: cls.name, methodName: toolMethod.methodName };
    const { options: toolOptions } = toolMethod;
    const name = prefix + (toolOptions.name ?? toolMethod.methodName);
    assertToolName(name, site);
    assertConfirmationRule(toolOptions.requireConfirmation, site);
    const first = byName.get(name);
    if (first !== undefined) throw new DuplicateToolNameError(site, name, first);
    byName.set(name, toolMethod.methodName);
    const { parameters, sources, description, outputSchema, standardArguments } = resolveToolSchema(toolMethod, site, options, cls);
    const declaredOutput = toolOptions.outputSchema === undefined ? undefined : explicitOutputSchema(toolOptions.outputSchema, site);
    const tool: ScannedTool = {
      name,
      description: toolOptions.description ?? description ?? '',
      parameters,
      isLongRunning: toolOptions.longRunning === true,
      methodName: toolMethod.methodName,
      className: cls.name,
      method: toolMethod.implementation,
      binding: createParameterBinding(name, sources),
      ...(declaredOutput || outputSchema ? { responseSchema: declaredOutput ?? outputSchema } : {}),
      ...(standardArguments ? { standardArguments } : {}),
      ...(toolOptions.requireConfirmation !== undefined ? { requireConfirmation: toolOptions.requireConfirmation } : {}),
      ...(toolOptions.confirmationHint !== undefined ? { confirmationHint: toolOptions.confirmationHint } : {}),
      ...(toolOptions.timeoutMs !== undefined ? { timeoutMs: toolOptions.timeoutMs } : {}),
      ...(toolOptions.maxResultChars !== undefined ? { maxResultChars: toolOptions.maxResultChars } : {}),
      ...(toolOptions.sequential ? { sequential: true } : {}),
      ...(toolOptions.idempotent ? { idempotent: true } : {}),
      ...(toolOptions.auth !== undefined ? { auth: toolOptions.auth } : {}),
      ...(toolOptions.repairArguments === false ? { repairArguments: false } : {}),
    };
    tools.push(tool);
  }
  if (!options) cache.set(cls, tools);
  return tools;
}

/**
 * THE schema-source decision of a tool, first that applies: explicit `@Tool({ inputSchema })` →
 * the build-time manifest's entry for the method ({@link ScanOptions.manifest}; a `@Param({ schema })`
 * or a DTO class still wins for its parameter, `@Param` options are laid over the manifest's) →
 * reflection of the parameters, where each `@Param` again prefers its explicit `schema` (see
 * {@link resolveParameterSchema}). With a manifest entry, no decorator metadata is needed.
 */
export function resolveToolSchema(
  toolMethod: ToolMethod,
  site: DefinitionSite,
  scanOptions?: ScanOptions,
  /** The class scanned, to check it is the one the manifest entry of its name describes. */
  cls?: Function,
): { parameters: JsonSchema; sources: ArgumentSource[]; description?: string; outputSchema?: JsonSchema; standardArguments?: StandardArguments } {
  const { prototype, methodName, options } = toolMethod;
  const explicit = explicitInputSchema(options, site);
  const types: unknown[] | undefined = Reflect.getMetadata(DESIGN_PARAMTYPES, prototype, methodName);
  const params: (ParamMetadata | undefined)[] = Reflect.getOwnMetadata(PARAMS_METADATA, prototype, methodName) ?? [];
  const contextIndexes: number[] = Reflect.getOwnMetadata(CTX_PARAM_METADATA, prototype, methodName) ?? [];
  const method = (prototype as Record<string, Function>)[methodName];
  // The manifest still gives the description and output schema when an explicit schema replaces its parameters.
  const manifest = manifestSourceOf(scanOptions?.manifest);
  const fromManifest = manifest?.methodFor(site.className, methodName, cls);
  const manifestParameters = explicit ? undefined : fromManifest;
  const count = Math.max(
    types?.length ?? 0,
    method.length,
    params.length,
    ...contextIndexes.map((i) => i + 1),
    manifestParameters ? manifestParameterCount(manifestParameters) : 0,
  );
  // Without decorator metadata (esbuild, tsx, vitest) a method still scans when every parameter says
  // what it is itself: @Ctx(), or @Param with an explicit `schema` or `enum`.
  const describedWithoutTypes = (index: number) =>
    contextIndexes.includes(index) || params[index]?.options.schema !== undefined || params[index]?.options.enum !== undefined;
  if (!types && count > 0 && !explicit && !manifestParameters && !Array.from({ length: count }, (_, i) => i).every(describedWithoutTypes)) {
    throw new MissingTypeMetadataError(site, toolMethod.standardDecorators, manifest && manifestMethodGap(manifest, site.className, methodName));
  }

  const facts: MethodFacts = {
    types,
    params,
    contextIndexes,
    manifestParameters,
    manifestPath: manifest?.path,
    standardDecorators: toolMethod.standardDecorators,
    explicit,
    input: options.input !== undefined,
  };
  const classified = Array.from({ length: count }, (_, index) => classifyParameter(index, facts, site));
  const { properties, required, whole, flat } = assembleParameters(classified);
  const sources = classified.map((parameter) => parameter.source);
  const documented = {
    ...(fromManifest?.description ? { description: fromManifest.description } : {}),
    ...(fromManifest?.outputSchema ? { outputSchema: fromManifest.outputSchema } : {}),
  };
  if (options.input) return { parameters: explicit!, sources, ...documented, standardArguments: { whole: options.input, properties: [] } };
  if (explicit) return { parameters: explicit, sources, ...documented };
  if (whole) return { parameters: whole, sources, ...documented };
  const parameters: JsonSchema = { type: 'object', properties };
  if (required.length) parameters.required = required;
  parameters.additionalProperties = false;
  // Recursive types from the manifest are `$ref`s into the tool schema's `$defs`.
  if (manifestParameters?.$defs && flat) parameters.$defs = manifestParameters.$defs;
  const standardArguments = standardPropertiesOf(classified, parameters);
  return { parameters, sources, ...documented, ...(standardArguments ? { standardArguments } : {}) };
}

/** `@Tool({ input })` (a Standard Schema, converted once here) or `@Tool({ inputSchema })`, checked; never both. */
function explicitInputSchema(options: ToolMethod['options'], site: DefinitionSite): JsonSchema | undefined {
  if (options.input !== undefined) {
    if (options.inputSchema !== undefined) throw new InvalidInputSchemaError(site, 'both input and inputSchema are given');
    return standardSchemaAsJson(options.input, site, true, 'input');
  }
  if (options.inputSchema) checkExplicitSchema(options.inputSchema, site, true);
  return options.inputSchema;
}

/** `@Tool({ outputSchema })` as JSON Schema: a Standard Schema converted (its output side), JSON Schema as given. */
function explicitOutputSchema(schema: JsonSchema | StandardSchemaV1, site: DefinitionSite): JsonSchema {
  return isStandardSchema(schema) ? standardSchemaAsJson(schema, site, false, 'output') : schema;
}

/**
 * The Standard Schemas of `@Param({ schema })`s, with `rest`: the tool schema whose judged properties are
 * emptied (`{}`), for ajv's share (the other parameters, `required`, no unknown properties).
 */
function standardPropertiesOf(classified: readonly ClassifiedParameter[], parameters: JsonSchema): StandardArguments | undefined {
  const judged: StandardProperty[] = [];
  for (const parameter of classified) {
    if (parameter.kind === 'property' && parameter.standard) judged.push({ name: parameter.name, schema: parameter.standard, optional: parameter.optional });
  }
  if (judged.length === 0) return undefined;
  const properties = { ...(parameters.properties as Record<string, JsonSchema>) };
  for (const { name } of judged) properties[name] = {};
  return { properties: judged, rest: { ...parameters, properties } };
}

/** What the scanner knows of a method's parameters, read once from its metadata. */
interface MethodFacts {
  readonly types: readonly unknown[] | undefined;
  readonly params: readonly (ParamMetadata | undefined)[];
  readonly contextIndexes: readonly number[];
  readonly manifestParameters: ManifestMethod | undefined;
  /** Where `manifestParameters` came from. */
  readonly manifestPath: string | undefined;
  /** The method's `@Tool` ran as a standard decorator. */
  readonly standardDecorators: boolean;
  readonly explicit: JsonSchema | undefined;
  /** `@Tool({ input })`: the first parameter takes the arguments, a later one the context. */
  readonly input: boolean;
}

/** One parameter, classified: where its value comes from and what it adds to the tool schema. */
type ClassifiedParameter =
  | { readonly kind: 'context'; readonly source: ArgumentSource }
  /** One property of the tool schema (a `@Param`, or the manifest's parameter). */
  | { readonly kind: 'property'; readonly name: string; readonly schema: JsonSchema; readonly optional: boolean; readonly source: ArgumentSource; readonly site: DefinitionSite; readonly standard?: StandardSchemaV1 }
  /** The whole tool schema (a DTO class, or the explicit schema taking all arguments). */
  | { readonly kind: 'whole'; readonly schema: JsonSchema; readonly source: ArgumentSource; readonly site: DefinitionSite };

/**
 * Classifies one parameter, first that applies: the context (`@Ctx()`, a `ToolContext` type, the
 * manifest's context position) → the manifest's parameter (unless a `@Param({ schema })` or a DTO class
 * says more) → a `@Param` → a DTO class → all arguments under an explicit schema. Anything else is
 * `UNDECORATED_PARAMETER`, or `MISSING_TYPE_METADATA` naming the manifest when there is no decorator metadata
 * and the manifest's entry for the method leaves the parameter out (a DTO parameter).
 */
function classifyParameter(index: number, facts: MethodFacts, methodSite: DefinitionSite): ClassifiedParameter {
  const type = facts.types?.[index];
  const param = facts.params[index];
  const site: DefinitionSite = { ...methodSite, parameterIndex: index, parameterName: param?.name };
  if (
    facts.contextIndexes.includes(index) ||
    (type === ToolContext && !param) ||
    facts.manifestParameters?.contextIndex === index ||
    // With standard decorators nothing says which parameter is the context: after `input`'s object, it is.
    (facts.input && index > 0 && !param)
  ) {
    return { kind: 'context', source: { kind: 'context' } };
  }
  // A `@Param({ schema })` stays explicit, and a DTO class keeps its class-validator rules and conversion.
  const fromManifest =
    facts.manifestParameters && !param?.options.schema && !isDtoClass(type) ? manifestArgumentAt(facts.manifestParameters, index, param) : undefined;
  if (fromManifest) {
    if (type === ToolContext || isContextSchema(fromManifest.schema)) throw InvalidParametersError.contextAsArgument(site);
    const { name, schema, optional, revive } = fromManifest;
    return { kind: 'property', name, schema, optional, site, source: { kind: 'argument', name, defaultValue: param?.options.default, revive } };
  }
  if (param) {
    const resolved = resolveParameterSchema(param, type, site);
    const standard = isStandardSchema(param.options.schema) ? param.options.schema : undefined;
    const optional = param.options.optional === true || param.options.default !== undefined || (standard !== undefined && acceptsUndefined(standard));
    const source: ArgumentSource = { kind: 'argument', name: param.name, defaultValue: param.options.default, dto: resolved.dto };
    return { kind: 'property', name: param.name, schema: resolved.schema, optional, site, source, ...(standard ? { standard } : {}) };
  }
  if (isDtoClass(type)) {
    const dto = buildDtoSchema(type, site);
    // With an explicit schema the DTO's own rules are not the contract; it is only the value's class.
    return { kind: 'whole', schema: dto.schema, site, source: { kind: 'dto', dto: { type, runClassValidator: !facts.explicit && dto.runClassValidator } } };
  }
  if (facts.explicit) return { kind: 'whole', schema: facts.explicit, site, source: { kind: 'all-arguments' } };
  if (!facts.types && facts.manifestParameters && facts.manifestPath !== undefined) {
    // No decorator metadata, so the type (a DTO class?) is unknown, and the manifest's entry leaves this parameter out.
    const gap = { path: facts.manifestPath, gap: 'parameter', className: methodSite.className, methodName: methodSite.methodName ?? '' } as const;
    throw new MissingTypeMetadataError(site, facts.standardDecorators, gap);
  }
  throw new UndecoratedParameterError(site, typeName(type));
}

// Properties of ToolContext that together mark a schema generated from it (as manifests of generators that
// missed a context named through a type alias wrote it); a model argument of that shape is never a tool's own.
const CONTEXT_PROPERTIES = ['functionCallId', 'invocationId', 'userId', 'sessionId', 'state', 'actions', 'signal'];

function isContextSchema(schema: JsonSchema): boolean {
  const properties = schema.properties;
  return typeof properties === 'object' && properties !== null && CONTEXT_PROPERTIES.every((name) => Object.prototype.hasOwnProperty.call(properties, name));
}

/**
 * The tool schema's parts from the classified parameters, with the one check of their styles: either
 * properties (flat parameters), or one parameter that is the whole schema, never both; no name twice.
 */
function assembleParameters(classified: readonly ClassifiedParameter[]): { properties: JsonSchema; required: string[]; whole?: JsonSchema; flat: number } {
  const properties: JsonSchema = {};
  const required: string[] = [];
  let whole: JsonSchema | undefined;
  let flat = 0;
  for (const parameter of classified) {
    if (parameter.kind === 'context') continue;
    if (whole !== undefined || (parameter.kind === 'whole' && flat > 0)) throw InvalidParametersError.mixedStyles(parameter.site);
    if (parameter.kind === 'whole') {
      whole = parameter.schema;
      continue;
    }
    if (parameter.name in properties) throw InvalidParametersError.duplicateName(parameter.site, parameter.name);
    properties[parameter.name] = parameter.schema;
    if (!parameter.optional) required.push(parameter.name);
    flat++;
  }
  return { properties, required, whole, flat };
}

/**
 * THE schema-source decision of one `@Param`: explicit `schema` option → reflection of its type
 * (`string`, `number`, `boolean`, `enum` option, DTO class).
 */
export function resolveParameterSchema(
  param: ParamMetadata,
  type: unknown,
  site: DefinitionSite,
): { schema: JsonSchema; dto?: { type: Function; runClassValidator: boolean } } {
  const explicit = param.options.schema;
  if (isStandardSchema(explicit)) return { schema: annotate(standardSchemaAsJson(explicit, site, false, 'input'), param) };
  if (explicit) {
    checkExplicitSchema(explicit, site, false);
    return { schema: annotate(explicit, param) };
  }
  return reflectParameterSchema(type, param, site);
}

// Core's own constant schemas (the built-in tools'), checked against the meta-schema by a test instead of
// at import: importing core then loads no ajv. See builtins.test.ts.
const preChecked = new WeakSet<object>();

/** @internal Marks a schema of core's own as already checked (a test validates every such schema). */
export function preCheckedSchema<T extends JsonSchema>(schema: T): T {
  preChecked.add(schema);
  return schema;
}

/**
 * The JSON Schema of a Standard Schema, made once at startup by its library's converter (the Standard
 * JSON Schema interface) and checked like an explicit schema; `INVALID_INPUT_SCHEMA` saying what to do
 * when the library has no converter or cannot convert it.
 */
export function standardSchemaAsJson(schema: StandardSchemaV1, site: DefinitionSite, wholeTool: boolean, direction: StandardSchemaDirection): JsonSchema {
  const converted = standardJsonSchema(schema, direction);
  if ('problem' in converted) throw new InvalidInputSchemaError(site, converted.problem);
  // Its library judges the arguments, so keywords and formats ajv does not know are the library's own (zod's `cuid`).
  checkExplicitSchema(converted.schema, site, wholeTool, false);
  return converted.schema;
}

/**
 * Explicit schemas are checked once at startup (cheap), so a typo fails here and not at the first call.
 * `strict` (default): ajv judges values by it, so a keyword or format ajv does not know is refused too.
 */
export function checkExplicitSchema(schema: JsonSchema, site: DefinitionSite, wholeTool: boolean, strict = true): void {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new InvalidInputSchemaError(site, 'it is not an object');
  }
  if (wholeTool && schema.type !== 'object') throw new InvalidInputSchemaError(site, notObjectRoot(schema));
  if (preChecked.has(schema)) return;
  const problems = metaSchemaProblems(schema, strict);
  if (problems) throw new InvalidInputSchemaError(site, problems);
}

/**
 * Why a whole tool's schema is not an object schema, by what it is: a type of another kind, or a union, an
 * intersection or a reference with no type of its own (a zod union at the root converts to `anyOf`).
 */
function notObjectRoot(schema: JsonSchema): string {
  if (schema.type !== undefined) return `its type is ${JSON.stringify(schema.type)}, not "object"`;
  const { anyOf, oneOf, allOf, $ref } = schema as { anyOf?: unknown; oneOf?: unknown; allOf?: unknown; $ref?: unknown };
  const union = Array.isArray(anyOf) ? `anyOf of ${anyOf.length}` : Array.isArray(oneOf) ? `oneOf of ${oneOf.length}` : undefined;
  const what = union ? `a union (${union} schemas)` : Array.isArray(allOf) ? 'an intersection (allOf)' : typeof $ref === 'string' ? `a reference (${JSON.stringify($ref)})` : 'a schema without a type';
  return `the root must be an object schema (type "object"), and it is ${what}; a whole tool's arguments are one object (for alternatives, one object with optional properties, or a property that holds the union)`;
}
